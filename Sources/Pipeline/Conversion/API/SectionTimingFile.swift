import Contracts
import Foundation

/// The timing file of a section (`.epub2audio-timing-007.json` in the output folder): reads, writes
/// and removes it.
///
/// The file is `SectionTiming` as JSON with sorted keys plus a `version` field (docs/manifest.md,
/// "Timing files"). The worker writes it when the section's audio is put in place; subtitles and the
/// read-along EPUB read it, also for sections finished in an earlier run.
public enum SectionTimingFile {
    /// The version this epub2audio writes; a file with a higher one is refused.
    public static let currentVersion = 1

    /// Largest timing file read: about 150 bytes a sentence, so a section of a million sentences.
    /// A bigger file is not one we wrote, and reading it whole could exhaust memory.
    public static let maximumBytes = 256 * 1024 * 1024

    /// The timing of section `section` kept in `directory`; nil when the folder has no timing file
    /// for it (a section not finished yet, or finished by an epub2audio that wrote none).
    ///
    /// Throws `ConversionError.invalidTimingFile` when the file is not a timing file this version
    /// understands (not JSON of the expected shape, a newer version, another section's timing, too
    /// big), and `.outputUnwritable` when it cannot be read.
    public static func read(directory: String, section: Int) throws -> SectionTiming? {
        let path = OutputPaths.join(directory, SectionTiming.fileName(section: section))
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maximumBytes else {
            throw ConversionError.invalidTimingFile(
                path: path, reason: "it holds \(size) bytes, more than the \(maximumBytes) a timing file may hold")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConversionError.outputUnwritable(path: path, reason: "cannot read the timing file")
        }
        let timing = try decode(data, path: path)
        guard timing.section == section else {
            throw ConversionError.invalidTimingFile(
                path: path, reason: "it holds the timing of section \(timing.section), not \(section)")
        }
        return timing
    }

    /// Writes `timing` to its file in `directory` atomically (temp file, fsync, rename), replacing
    /// the one there.
    public static func write(_ timing: SectionTiming, directory: String) throws {
        try AtomicFile.write(encode(timing), named: SectionTiming.fileName(section: timing.section), in: directory)
    }

    /// Writes `timing` beside a section's audio that is about to be renamed into place: as durable as
    /// that audio (not fsynced; a power cut may leave it damaged, which `read` reports).
    static func writeBesideAudio(_ timing: SectionTiming, directory: String) throws {
        try AtomicFile.writeLeavingSyncToTheJournal(
            encode(timing), named: SectionTiming.fileName(section: timing.section), in: directory)
    }

    /// The section whose timing file is named `name`, or nil when it is not a timing file's name.
    static func section(ofFileName name: String) -> Int? {
        let prefix = ".epub2audio-timing-"
        guard name.hasPrefix(prefix), name.hasSuffix(".json") else { return nil }
        let digits = name.dropFirst(prefix.count).dropLast(".json".count)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits) else {
            return nil
        }
        return SectionTiming.fileName(section: number) == name ? number : nil
    }

    /// Removes the timing file of section `section` from `directory`, if there is one: the section is
    /// being made again, or its audio was removed.
    public static func remove(directory: String, section: Int) {
        unlink(OutputPaths.join(directory, SectionTiming.fileName(section: section)))
    }

    /// The bytes of a timing file: the same timing gives the same bytes.
    public static func encode(_ timing: SectionTiming) -> Data {
        CanonicalJSON.encode(
            Stored(
                version: currentVersion, section: timing.section, sampleRate: timing.sampleRate,
                frames: timing.frames, cues: timing.cues))
    }

    /// The timing a timing file holds; `path` names the file in errors.
    ///
    /// Throws `ConversionError.invalidTimingFile` when `data` is not JSON of the expected shape or
    /// was written by a newer epub2audio, or when a cue is not a span of the section's audio.
    public static func decode(_ data: Data, path: String) throws -> SectionTiming {
        let stored: Stored
        do {
            stored = try JSONDecoder().decode(Stored.self, from: data)
        } catch {
            let head = String(decoding: data.prefix(40), as: UTF8.self)
            let reason = data.isEmpty ? "the file is empty" : "\(error); it starts with \(head.debugDescription)"
            throw ConversionError.invalidTimingFile(path: path, reason: reason)
        }
        guard stored.version <= currentVersion else {
            throw ConversionError.invalidTimingFile(
                path: path,
                reason: "its version \(stored.version) is newer than this epub2audio understands (\(currentVersion))")
        }
        let timing = SectionTiming(
            section: stored.section, sampleRate: stored.sampleRate, frames: stored.frames, cues: stored.cues)
        if let problem = problem(in: timing) { throw ConversionError.invalidTimingFile(path: path, reason: problem) }
        return timing
    }

    /// What makes `timing` unusable by a consumer (a cue outside the audio or ending before it
    /// starts, a word outside its cue's text), or nil.
    static func problem(in timing: SectionTiming) -> String? {
        guard timing.sampleRate > 0, timing.frames >= 0 else {
            return "sample rate \(timing.sampleRate) and \(timing.frames) frames do not describe audio"
        }
        for (index, cue) in timing.cues.enumerated() {
            guard 0 <= cue.startFrame, cue.startFrame <= cue.endFrame, cue.endFrame <= timing.frames else {
                return "cue \(index) spans frames \(cue.startFrame)..<\(cue.endFrame) of \(timing.frames)"
            }
            let length = cue.text.utf16.count
            if let word = cue.words.first(where: { $0.textRange.lowerBound < 0 || $0.textRange.upperBound > length }) {
                return "a word of cue \(index) is at \(word.textRange) of a text of \(length) UTF-16 units"
            }
        }
        return nil
    }

    /// The file's shape: `SectionTiming`'s fields and a version (1 when missing).
    private struct Stored: Codable {
        var version: Int
        var section: Int
        var sampleRate: Int
        var frames: Int
        var cues: [SpokenCue]

        init(version: Int, section: Int, sampleRate: Int, frames: Int, cues: [SpokenCue]) {
            self.version = version
            self.section = section
            self.sampleRate = sampleRate
            self.frames = frames
            self.cues = cues
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
            section = try container.decode(Int.self, forKey: .section)
            sampleRate = try container.decode(Int.self, forKey: .sampleRate)
            frames = try container.decode(Int.self, forKey: .frames)
            cues = try container.decode([SpokenCue].self, forKey: .cues)
        }
    }
}
