import Foundation

/// ffmpeg's command-line tools as the bundle tests use them (Debian's `ffmpeg` package has both;
/// `make deps` installs it). Tests that need them are skipped when they are absent.
public enum FFTools {
    /// Whether `ffmpeg` and `ffprobe` are on the PATH.
    public static let installed = ["ffmpeg", "ffprobe"].allSatisfy { tool in
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .contains { access("\($0)/\(tool)", X_OK) == 0 }
    }

    /// `ffprobe -show_chapters -show_format -show_streams -of json` of `path`: its exit status and
    /// the parsed JSON (nil when ffprobe wrote none).
    public static func probe(_ path: String) throws -> (status: Int32, json: [String: Any]?) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "ffprobe", "-v", "error", "-show_chapters", "-show_format", "-show_streams", "-of", "json", path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, try? JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

extension FFTools {
    /// What `ffprobe -v LEVEL` says about `path` on its standard error, banner left out: at
    /// `warning`, nothing for a well-formed file; at `info`, also its notes on the file's layout
    /// ("764 bytes of comment header remain").
    public static func messages(_ path: String, level: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffprobe", "-hide_banner", "-v", level, path]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
