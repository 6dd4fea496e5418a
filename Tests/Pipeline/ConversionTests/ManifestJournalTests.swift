import Contracts
import Foundation
import Testing

@testable import Conversion

/// `manifest.journal`: replay, torn and stale journals, compaction, and the store that writes them.
@Suite struct ManifestJournalTests {
    static func sample(sections: Int = 3) -> Manifest {
        Manifest(
            book: BookRecord(title: "Journal Book", sha256: "ab12"), created: "2025-01-02T03:04:05Z",
            sections: (1...sections).map { SectionRecord(number: $0, title: "Chapter \($0)", words: 10 * $0) })
    }

    static func done(_ number: Int) -> SectionRecord {
        SectionRecord(
            number: number, title: "Chapter \(number)", status: .done, file: "00\(number) - Chapter \(number).wav",
            durationSeconds: 1.5, words: 10 * number, bytes: 1234, textSHA256: "t\(number)", settingsSHA256: "s")
    }

    static func folder() throws -> Sandbox {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.output, withIntermediateDirectories: true)
        return sandbox
    }

    /// `manifest.json` (naming journal `id`) and a journal of `lines` after the header, written by hand.
    static func write(_ manifest: Manifest, id: String, header: String? = nil, journal lines: [Data], in dir: String)
        throws
    {
        var manifest = manifest
        manifest.journal = id
        try manifest.write(toDirectory: dir)
        var data = ManifestJournal.header(id: header ?? id)
        for line in lines { data.append(line) }
        try data.write(to: URL(fileURLWithPath: dir + "/" + ManifestJournal.fileName))
    }

    /// What is on disk as `manifest.json` alone, without the journal.
    static func rawManifest(_ dir: String) throws -> Manifest {
        try Manifest.decode(try #require(FileManager.default.contents(atPath: dir + "/manifest.json")))
    }

    static func journalLines(_ dir: String) -> [Substring]? {
        guard let data = FileManager.default.contents(atPath: dir + "/" + ManifestJournal.fileName) else { return nil }
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
    }

    @Test func loadReplaysTheJournalInOrderLastRecordWins() throws {
        let sandbox = try Self.folder()
        var inProgress = Self.done(2)
        inProgress.status = .inProgress
        inProgress.wordsDone = 5
        try Self.write(
            Self.sample(), id: "j1",
            journal: [
                ManifestJournal.line(inProgress), ManifestJournal.line(Self.done(2)),
                ManifestJournal.line(Self.done(3)),
            ],
            in: sandbox.output)
        let manifest = try sandbox.manifest()
        #expect(manifest.section(1) == Self.sample().section(1))
        #expect(manifest.section(2) == Self.done(2))
        #expect(manifest.section(3) == Self.done(3))
        // The file itself is untouched by reading.
        #expect(try Self.rawManifest(sandbox.output).section(2)?.status == .pending)
    }

    @Test func aTornLastLineIsIgnored() throws {
        let sandbox = try Self.folder()
        let whole = ManifestJournal.line(Self.done(1))
        let torn = ManifestJournal.line(Self.done(2))
        // Every way a kill can cut the last line: no newline yet, down to a single byte.
        for cut in [1, torn.count / 2, torn.count - 1] {
            try Self.write(Self.sample(), id: "j1", journal: [whole, torn.prefix(cut)], in: sandbox.output)
            let manifest = try sandbox.manifest()
            #expect(manifest.section(1) == Self.done(1), "cut at \(cut)")
            #expect(manifest.section(2)?.status == .pending, "cut at \(cut)")
        }
    }

    @Test func replayStopsAtALineThatIsNotARecord() throws {
        // A power cut can leave zeros at the end of an appended file; what follows them was never recorded.
        let sandbox = try Self.folder()
        try Self.write(
            Self.sample(), id: "j1",
            journal: [ManifestJournal.line(Self.done(1)), Data([0, 0, 0, 0x0A]), ManifestJournal.line(Self.done(2))],
            in: sandbox.output)
        let manifest = try sandbox.manifest()
        #expect(manifest.section(1) == Self.done(1))
        #expect(manifest.section(2)?.status == .pending)
    }

    @Test func aJournalOfAnotherManifestIsIgnored() throws {
        // Killed after the new manifest was written and before the new journal replaced the old one.
        let sandbox = try Self.folder()
        try Self.write(
            Self.sample(), id: "new", header: "old", journal: [ManifestJournal.line(Self.done(1))], in: sandbox.output)
        #expect(
            try sandbox.manifest()
                == {
                    var m = Self.sample(); m.journal = "new"; return m
                }())
        // A manifest that names no journal ignores any file of that name.
        try Self.sample().write(toDirectory: sandbox.output)
        #expect(try sandbox.manifest() == Self.sample())
    }

    @Test func aJournalRecordWithAPathForAFileIsRefused() throws {
        let sandbox = try Self.folder()
        var bad = Self.done(1)
        bad.file = "../escape.wav"
        try Self.write(Self.sample(), id: "j1", journal: [ManifestJournal.line(bad)], in: sandbox.output)
        #expect(throws: ConversionError.self) { try Manifest.load(fromDirectory: sandbox.output) }
    }

    @Test func theStoreRecordsChangesInTheJournalAndFoldsThemInAtClose() throws {
        let sandbox = try Self.folder()
        let store = try ManifestStore(manifest: Self.sample(), directory: sandbox.output, interval: 60)
        // Written at once, before any change: the manifest names a new journal, which is empty.
        let id = try #require(try Self.rawManifest(sandbox.output).journal)
        #expect(Self.journalLines(sandbox.output)?.count == 1)

        try store.update(section: 2) { $0.status = .inProgress }
        try store.update(section: 2) { $0 = Self.done(2) }
        store.flush()
        // Recorded in the journal; manifest.json itself is not rewritten per change.
        #expect(try Self.rawManifest(sandbox.output).section(2)?.status == .pending)
        #expect(Self.journalLines(sandbox.output)?.count == 3)
        #expect(try sandbox.manifest().section(2) == Self.done(2))
        #expect(try sandbox.manifest().journal == id)

        try store.close()
        #expect(sandbox.files() == ["manifest.json"])
        let final = try Self.rawManifest(sandbox.output)
        #expect(final.journal == nil)
        #expect(final.section(2) == Self.done(2))
        #expect(final.sections == store.manifest.sections)
        try store.close()  // a second close does nothing
    }

    @Test func progressIsRecordedAtMostOncePerIntervalPerSection() throws {
        let sandbox = try Self.folder()
        let store = try ManifestStore(manifest: Self.sample(), directory: sandbox.output, interval: 60)
        for words in 1...50 { try store.progress(section: 1, wordsDone: words) }
        try store.progress(section: 2, wordsDone: 7)
        store.flush()
        // The first of each section only; the rest stays in memory until the next record.
        #expect(Self.journalLines(sandbox.output)?.count == 3)
        #expect(store.manifest.section(1)?.wordsDone == 50)
        #expect(try sandbox.manifest().section(1)?.wordsDone == 1)
        try store.close()
        #expect(try Self.rawManifest(sandbox.output).section(1)?.wordsDone == 50)
    }

    @Test func aLongJournalIsFoldedIntoTheManifestAndANewJournalStarted() throws {
        let sandbox = try Self.folder()
        let store = try ManifestStore(
            manifest: Self.sample(sections: 4), directory: sandbox.output, interval: 60, syncInterval: 0,
            compactionLines: 4)
        let first = try #require(try Self.rawManifest(sandbox.output).journal)
        for round in 1...5 {
            for number in 1...4 {
                try store.update(section: number) { $0.wordsDone = round * 100 + number }
                store.flush()
            }
        }
        // 20 changes with a fold every 4 lines (the book has 4 sections): the journal never grows long,
        // and manifest.json + journal always equal the store's state.
        let raw = try Self.rawManifest(sandbox.output)
        let lines = try #require(Self.journalLines(sandbox.output))
        #expect(lines.count - 1 < 4)
        #expect(raw.journal != first)
        #expect(lines.first?.contains(try #require(raw.journal)) == true)
        #expect(raw.section(4)?.wordsDone ?? 0 >= 400)
        #expect(try sandbox.manifest().sections == store.manifest.sections)
        try store.close()
        #expect(try Self.rawManifest(sandbox.output).sections == store.manifest.sections)
    }

    @Test func aFailedWriteStopsTheNextChange() throws {
        let sandbox = try Self.folder()
        let store = try ManifestStore(
            manifest: Self.sample(), directory: sandbox.output, interval: 60, syncInterval: 0)
        // The folder disappears under the run: the next fold cannot write its temp file.
        try FileManager.default.removeItem(atPath: sandbox.output)
        try store.updateAll { $0.sections[0].status = .skipped }
        store.flush()
        #expect(throws: ConversionError.self) { try store.update(section: 1) { $0.status = .done } }
        #expect(throws: ConversionError.self) { try store.close() }
    }
}
