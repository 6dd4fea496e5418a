import Contracts
import Foundation
import Testing

@testable import Conversion

@Suite struct ManifestTests {
    static let sample = Manifest(
        book: BookRecord(identifier: "urn:isbn:1", title: "The Lamp Keeper", authors: ["Ann Lee"], sha256: "ab12"),
        settings: AudioSettings(
            voice: VoiceSettings(voice: "en-gb", rate: 160, pitch: 40, volume: 90),
            encoding: AudioEncoding(format: .mp3, compressionLevel: 0.8, bitrateMode: .constant), notes: .end,
            normalisationVersion: 2),
        created: "2025-01-02T03:04:05Z", updated: "2025-01-02T03:05:00Z",
        sections: [
            SectionRecord(
                number: 1, title: "Loomings", status: .done, file: "001 - Loomings.mp3", durationSeconds: 612.5,
                words: 2200, bytes: 3_000_000, textSHA256: "cd34", settingsSHA256: "ef56", started: "a", finished: "b"),
            SectionRecord(number: 2, title: "The Carpet-Bag", status: .inProgress, words: 1500, wordsDone: 300),
            SectionRecord(number: 3, title: "Oops", status: .failed, words: 10, error: "engine failed"),
        ])

    @Test func roundTrip() throws {
        let decoded = try Manifest.decode(Self.sample.encoded())
        #expect(decoded == Self.sample)
    }

    /// `encoded()` writes one record at a time; its bytes must be what the encoder gives for the whole
    /// manifest (files written before, and resumed runs, compare them), whatever the records hold.
    @Test(arguments: [sample, withParts, Manifest(), Manifest(book: BookRecord(title: "No sections"))])
    func encodedOneRecordAtATimeIsTheEncodersOutput(_ manifest: Manifest) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var whole = try encoder.encode(manifest)
        whole.append(0x0A)
        #expect(String(decoding: manifest.encoded(), as: UTF8.self) == String(decoding: whole, as: UTF8.self))
    }

    /// Timestamps keep the text `ISO8601DateFormatter` gave them (whole seconds, truncated, UTC).
    @Test(arguments: [0, 1_764_115_273.999, 951_782_400.5, 4_102_444_799])
    func timestampsAreTheFormattersText(_ seconds: Double) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let date = Date(timeIntervalSince1970: seconds)
        #expect(Timestamp.string(date) == formatter.string(from: date))
    }

    /// A section with finished parts and one with an empty list of them (an empty array inside a record).
    static let withParts: Manifest = {
        var manifest = sample
        var parted = SectionRecord(number: 4, title: "\"Quoted\"\nand / slashed", status: .inProgress, words: 9000)
        parted.parts = [
            PartRecord(
                index: 0, firstChunk: 0, endChunk: 7, file: ".epub2audio-part-004-000.pcm", frames: 44100,
                sampleRate: 22050, bytes: 88200, textSHA256: "aa", settingsSHA256: "bb")
        ]
        var empty = SectionRecord(number: 5, title: "Empty parts", words: 1)
        empty.parts = []
        manifest.sections += [parted, empty]
        manifest.journal = "abc"
        return manifest
    }()

    @Test func statusesUseTheDocumentedNames() throws {
        let text = String(decoding: Self.sample.encoded(), as: UTF8.self)
        #expect(text.contains(#""status" : "in-progress""#))
        #expect(text.contains(#""status" : "done""#))
        #expect(text.contains(#""version" : 2"#))
    }

    @Test func missingKeysFallBackToDefaults() throws {
        let manifest = try Manifest.decode(Data(#"{"sections":[{"number":4}]}"#.utf8))
        #expect(manifest.version == Manifest.currentVersion)
        #expect(manifest.book == BookRecord())
        #expect(manifest.settings == nil)
        #expect(manifest.sections == [SectionRecord(number: 4, title: "", status: .pending)])
        let settings = try JSONDecoder().decode(
            AudioSettings.self, from: Data(#"{"voice":{"voice":"de","rate":150,"pitch":50,"volume":100}}"#.utf8))
        #expect(settings.encoding == AudioEncoding())
        #expect(settings.chunking == ChunkerOptions())
        #expect(settings.voice.voice == "de")
    }

    @Test func unknownStatusMeansRedo() throws {
        let manifest = try Manifest.decode(Data(#"{"version":1,"sections":[{"number":1,"status":"teleported"}]}"#.utf8))
        #expect(manifest.sections.first?.status == .pending)
    }

    @Test func newerVersionIsRefused() {
        #expect(throws: ConversionError.unsupportedManifestVersion(path: "m.json", version: 3)) {
            try Manifest.decode(Data(#"{"version":3}"#.utf8), path: "m.json")
        }
    }

    @Test func versionOneIsStillRead() throws {
        // Version 1 had no journal: its folders resume as they are.
        let manifest = try Manifest.decode(Data(#"{"version":1,"sections":[{"number":2,"status":"done"}]}"#.utf8))
        #expect(manifest.version == 1)
        #expect(manifest.journal == nil)
        #expect(manifest.section(2)?.status == .done)
    }

    @Test(arguments: ["../outside.wav", "/etc/passwd", "a/b.wav", "..", ".", ""])
    func fileNamesMustStayInTheFolder(_ file: String) {
        let json = #"{"sections":[{"number":1,"status":"done","file":"001 - A.wav"},{"number":2,"file":"\#(file)"}]}"#
        #expect {
            try Manifest.decode(Data(json.utf8), path: "m.json")
        } throws: { error in
            if case .invalidManifest(_, let reason) = error as? ConversionError { return reason.contains("section 2") }
            return false
        }
    }

    @Test func garbageIsAnInvalidManifest() {
        #expect {
            try Manifest.decode(Data("not json".utf8), path: "m.json")
        } throws: { error in
            if case .invalidManifest(let path, _) = error as? ConversionError { return path == "m.json" }
            return false
        }
    }

    @Test func settingsFingerprintChangesWithEverySetting() {
        let base = AudioSettings(voice: VoiceSettings(voice: "en"))
        var variants: [AudioSettings] = []
        var v = base
        v.voice.rate += 1
        variants.append(v)
        v = base
        v.encoding.format = .flac
        variants.append(v)
        v = base
        v.encoding.compressionLevel = 0.5
        variants.append(v)
        v = base
        v.encoding.bitrateMode = .variable
        variants.append(v)
        v = base
        v.chunking.paragraphMS += 1
        variants.append(v)
        v = base
        v.notes = .end
        variants.append(v)
        v = base
        v.normalisationVersion += 1
        variants.append(v)
        let prints = Set(variants.map(\.fingerprint) + [base.fingerprint])
        #expect(prints.count == variants.count + 1)
        #expect(base.fingerprint == AudioSettings(voice: VoiceSettings(voice: "en")).fingerprint)
    }

    @Test func atomicWriteReplacesAndLeavesNoTempFiles() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.output, withIntermediateDirectories: true)
        try Self.sample.write(toDirectory: sandbox.output)
        var second = Self.sample
        second.sections.removeLast()
        try second.write(toDirectory: sandbox.output)
        #expect(sandbox.files() == ["manifest.json"])
        #expect(try sandbox.manifest() == second)
    }

    @Test func atomicWriteIntoMissingFolderIsUnwritable() {
        #expect {
            try Self.sample.write(toDirectory: "/nonexistent-folder-for-test")
        } throws: { error in
            if case .outputUnwritable(let path, _) = error as? ConversionError {
                return path == "/nonexistent-folder-for-test/manifest.json"
            }
            return false
        }
    }
}
