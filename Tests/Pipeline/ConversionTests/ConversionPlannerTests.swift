import Contracts
import Testing

@testable import Conversion

/// The planner alone: sections, a manifest and a folder listing in, a plan out; no thread, file or engine.
@Suite struct ConversionPlannerTests {
    static let sections = [
        PlannedSection(number: 1, title: "Cover", words: 0, included: false),
        PlannedSection(number: 2, title: "One", words: 10),
        PlannedSection(number: 3, title: "Two", words: 20),
    ]
    static let names = ["001 - Cover.wav", "002 - One.wav", "003 - Two.wav"]
    static let text: [Int: [SpokenBlock]] = [
        2: [SpokenBlock(kind: .paragraph, text: "one", source: SourcePosition(spineIndex: 1, blockIndex: 0))],
        3: [SpokenBlock(kind: .paragraph, text: "two", source: SourcePosition(spineIndex: 2, blockIndex: 0))],
    ]

    /// Inputs for a run selecting 2 and 3 into an empty folder.
    static func inputs(
        previous: Manifest? = nil, files: [String: Int64] = [:], force: Bool = false, allow: Bool = false
    ) -> ConversionPlanner.Inputs {
        ConversionPlanner.Inputs(
            sections: sections, selected: [2, 3], fileNames: names, previous: previous,
            ownedFiles: Set(previous?.sections.compactMap(\.file) ?? []), filesOnDisk: files,
            settingsFingerprint: "settings", force: force, allowNonEmptyOutput: allow, directory: "/out")
    }

    /// A manifest in which section `number` is done as `file`, with the text of `text[number]`.
    static func done(_ number: Int, file: String, bytes: Int64 = 100, text: String? = nil) -> SectionRecord {
        SectionRecord(
            number: number, title: "Section \(number)", status: .done, file: file, words: 1, bytes: bytes,
            textSHA256: text ?? SpokenTextFingerprint.sha256(Self.text[number] ?? []), settingsSHA256: "settings")
    }

    /// Extracts from `text`, counting the calls per section.
    final class Reader {
        var calls: [Int: Int] = [:]
        func read(_ number: Int) throws -> [SpokenBlock] {
            calls[number, default: 0] += 1
            guard let blocks = ConversionPlannerTests.text[number] else { throw FakeError.cannotSpeak("none") }
            return blocks
        }
    }

    @Test func aFreshFolderMakesEverySelectedSectionWithoutReadingText() throws {
        let reader = Reader()
        let plan = try ConversionPlanner.plan(Self.inputs(), text: reader.read)
        #expect(plan.toMake.map(\.section.number) == [2, 3])
        #expect(plan.toMake.map(\.file) == ["002 - One.wav", "003 - Two.wav"])
        #expect(plan.toMake.allSatisfy { $0.blocks == nil && $0.previousFile == nil })
        #expect(plan.records.map(\.status) == [.skipped, .pending, .pending])
        #expect(reader.calls.isEmpty, "text is read by the job slots, once")
        #expect(plan.resumed.isEmpty && plan.warnings.isEmpty && plan.unlistedFiles.isEmpty)
    }

    @Test func aDoneFileWithTheSameTextSettingsAndSizeIsResumed() throws {
        let previous = Manifest(sections: [Self.done(2, file: Self.names[1])])
        let reader = Reader()
        let plan = try ConversionPlanner.plan(
            Self.inputs(previous: previous, files: [Self.names[1]: 100]), text: reader.read)
        #expect(plan.resumed.map(\.number) == [2])
        #expect(plan.toMake.map(\.section.number) == [3])
        #expect(plan.records[1].status == .done)
        #expect(reader.calls == [2: 1])
    }

    @Test func aChangedTextIsMadeAgainWithTheTextAlreadyRead() throws {
        let previous = Manifest(sections: [Self.done(2, file: Self.names[1], text: "old")])
        let reader = Reader()
        let plan = try ConversionPlanner.plan(
            Self.inputs(previous: previous, files: [Self.names[1]: 100]), text: reader.read)
        #expect(plan.resumed.isEmpty)
        #expect(plan.toMake.first?.blocks == Self.text[2], "the job keeps the text: each section is read once")
        #expect(reader.calls == [2: 1])
    }

    @Test(arguments: [
        (Int64(99), false, "settings"), (100, true, "settings"), (100, false, "other settings"),
    ])
    func aFileThatIsNotCurrentIsMadeAgainUnread(size: Int64, force: Bool, fingerprint: String) throws {
        var record = Self.done(2, file: Self.names[1])
        record.settingsSHA256 = fingerprint
        let reader = Reader()
        let plan = try ConversionPlanner.plan(
            Self.inputs(previous: Manifest(sections: [record]), files: [Self.names[1]: size], force: force),
            text: reader.read)
        #expect(plan.toMake.map(\.section.number) == [2, 3])
        #expect(reader.calls.isEmpty)
    }

    @Test func aFileAtOurNameThatIsNotOursIsRefusedOrReplacedWithAWarning() throws {
        let files: [String: Int64] = [Self.names[2]: 5]
        #expect(throws: ConversionError.outputNotEmpty(path: "/out/003 - Two.wav")) {
            try ConversionPlanner.plan(Self.inputs(files: files), text: Reader().read)
        }
        let plan = try ConversionPlanner.plan(Self.inputs(files: files, allow: true), text: Reader().read)
        #expect(plan.warnings == ["replacing /out/003 - Two.wav, which epub2audio did not make"])
        #expect(plan.toMake.count == 2)
    }

    @Test func aRenamedSectionKeepsItsOldFileUntilTheNewOneIsMade() throws {
        let previous = Manifest(sections: [Self.done(3, file: "003 - Old Title.wav"), Self.done(9, file: "gone.wav")])
        let plan = try ConversionPlanner.plan(
            Self.inputs(previous: previous, files: ["003 - Old Title.wav": 100, "gone.wav": 1]), text: Reader().read)
        #expect(plan.toMake.last?.previousFile == "003 - Old Title.wav")
        #expect(plan.unlistedFiles == ["gone.wav"])
    }

    @Test func anUnselectedDoneSectionStaysDone() throws {
        var inputs = Self.inputs(previous: Manifest(sections: [Self.done(2, file: Self.names[1])]))
        inputs.selected = [3]
        let plan = try ConversionPlanner.plan(inputs, text: Reader().read)
        #expect(plan.records.map(\.status) == [.skipped, .done, .pending])
        #expect(plan.unlistedFiles.isEmpty)
    }

    @Test func unreadableTextOfADoneSectionFailsItAlone() throws {
        let previous = Manifest(sections: [Self.done(2, file: Self.names[1])])
        let plan = try ConversionPlanner.plan(Self.inputs(previous: previous, files: [Self.names[1]: 100])) { number in
            if number == 2 { throw FakeError.cannotSpeak("broken") }
            return []
        }
        #expect(plan.unreadable.map(\.section) == [2])
        #expect(plan.records[1].status == .failed)
        #expect(plan.toMake.map(\.section.number) == [3])
    }
}
