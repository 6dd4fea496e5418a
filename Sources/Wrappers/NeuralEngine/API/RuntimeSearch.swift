import Foundation

/// Where the sherpa-onnx runtime is looked for, in order; a pure value over an environment and a view of
/// the file system, so the order is tested without either.
///
/// 1. `EPUB2AUDIO_SHERPA_ONNX=DIR`, the folder holding `libsherpa-onnx-c-api.so` (or its `lib` folder).
///    When it is set, nothing else is tried: a wrong setting is an error, not a silent fallback.
/// 2. The system library path, as the dynamic loader searches it (`LD_LIBRARY_PATH`, `/etc/ld.so.cache`,
///    `/lib`, `/usr/lib`): the library opened by its bare name.
/// 3. The `sherpa_onnx/lib` folder of an installed Python package (the `sherpa-onnx-core` wheel), found
///    without running Python: `PYTHONPATH`, the active virtual environment or conda prefix, the user's
///    site-packages, pyenv's versions, then `/usr/local` and `/usr`.
/// 4. Last, Python itself (`python3`, bounded to `pythonTimeout`), asked where `sherpa_onnx` is, for installs
///    in places the list above does not know.
public struct RuntimeSearch: Sendable {
    /// The library the engine opens.
    public static let libraryName = "libsherpa-onnx-c-api.so"
    /// The library it needs beside it (found through its `$ORIGIN` run path).
    public static let companionName = "libonnxruntime.so"
    /// The only sherpa-onnx version whose C structs this build declares.
    public static let requiredVersion = "1.13.8"
    /// The variable naming the runtime's folder.
    public static let environmentVariable = "EPUB2AUDIO_SHERPA_ONNX"
    /// How long Python may take to answer (it imports nothing: `importlib.util.find_spec`).
    public static let pythonTimeout: TimeInterval = 10

    /// One place to try.
    public enum Candidate: Hashable, Sendable, CustomStringConvertible {
        /// A folder that should hold the library; `origin` says why it is tried.
        case folder(String, origin: String)
        /// The dynamic loader's own search, by bare name.
        case systemPath
        /// Ask `python3` where the `sherpa_onnx` package is.
        case askPython

        /// Where, as the not-found error lists it.
        public var description: String {
            switch self {
            case .folder(let path, let origin): "\(path) (\(origin))"
            case .systemPath: "the system library path (LD_LIBRARY_PATH, ld.so.cache, /lib, /usr/lib)"
            case .askPython: "the sherpa_onnx package python3 reports"
            }
        }
    }

    /// The process environment (or a test's).
    public var environment: [String: String]
    /// Whether Python may be run as the last resort.
    public var allowsPython: Bool

    /// A search in `environment`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment, allowsPython: Bool = true) {
        self.environment = environment
        self.allowsPython = allowsPython
    }

    /// The places to try, in order. `listDirectory` lists a folder's entries (empty when it does not exist);
    /// only folders that exist on it are listed as Python candidates.
    public func candidates(listDirectory: (String) -> [String] = RuntimeSearch.listDirectory) -> [Candidate] {
        if let explicit = environment[Self.environmentVariable], !explicit.isEmpty {
            return [
                .folder(explicit, origin: Self.environmentVariable),
                .folder(explicit + "/lib", origin: Self.environmentVariable),
            ]
        }
        var result: [Candidate] = [.systemPath]
        var seen = Set<String>()
        for (sitePackages, origin) in sitePackagesFolders(listDirectory: listDirectory) {
            let folder = sitePackages + "/sherpa_onnx/lib"
            guard seen.insert(folder).inserted else { continue }
            result.append(.folder(folder, origin: origin))
        }
        if allowsPython { result.append(.askPython) }
        return result
    }

    /// Folders where pip puts packages, in the order Python would prefer them, each with why it is tried.
    func sitePackagesFolders(listDirectory: (String) -> [String]) -> [(String, String)] {
        var folders: [(String, String)] = []
        for entry in (environment["PYTHONPATH"] ?? "").split(separator: ":") where !entry.isEmpty {
            folders.append((String(entry), "PYTHONPATH"))
        }
        var prefixes: [(String, String)] = []
        if let venv = environment["VIRTUAL_ENV"], !venv.isEmpty { prefixes.append((venv, "VIRTUAL_ENV")) }
        if let conda = environment["CONDA_PREFIX"], !conda.isEmpty { prefixes.append((conda, "CONDA_PREFIX")) }
        let home = environment["HOME"] ?? ""
        if !home.isEmpty { prefixes.append((home + "/.local", "user site-packages")) }
        let pyenvRoot =
            environment["PYENV_ROOT"].flatMap { $0.isEmpty ? nil : $0 } ?? (home.isEmpty ? "" : home + "/.pyenv")
        if !pyenvRoot.isEmpty {
            let versions = listDirectory(pyenvRoot + "/versions").sorted {
                Self.versionNumbers($0).lexicographicallyPrecedes(Self.versionNumbers($1))
            }
            for version in versions.reversed() {
                prefixes.append((pyenvRoot + "/versions/" + version, "pyenv"))
            }
        }
        prefixes += [("/usr/local", "/usr/local"), ("/usr", "/usr")]
        for (prefix, origin) in prefixes {
            // Newest Python first: lib/python3.12 before lib/python3.11.
            let versions = listDirectory(prefix + "/lib").filter { $0.hasPrefix("python3") }
                .sorted { Self.versionNumbers($0).lexicographicallyPrecedes(Self.versionNumbers($1)) }.reversed()
            for version in versions {
                for kind in ["site-packages", "dist-packages"] {
                    let folder = "\(prefix)/lib/\(version)/\(kind)"
                    if !listDirectory(folder).isEmpty { folders.append((folder, origin)) }
                }
            }
        }
        return folders
    }

    /// The numbers in a version folder's name, for ordering: `python3.11` → [3, 11], `3.13.0` → [3, 13, 0].
    static func versionNumbers(_ name: String) -> [Int] {
        name.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    }

    /// A folder's entries, empty when it cannot be read.
    public static func listDirectory(_ path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }

    /// The `lib` folders of the `sherpa_onnx` package Python finds, or none (Python absent, slow, or no
    /// package). Runs `python3` with a bounded time and a bounded answer.
    static func askPython(timeout: TimeInterval = pythonTimeout) -> [String] {
        let script =
            "import importlib.util as u\ns = u.find_spec('sherpa_onnx')\n"
            + "print('\\n'.join(s.submodule_search_locations or []) if s else '')"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-I", "-c", script]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return [] }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            return []
        }
        let data = pipe.fileHandleForReading.readData(ofLength: 64 * 1024)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map { $0 + "/lib" }
    }
}
