import Testing

@testable import NeuralEngine

@Suite struct TokenTableTests {
    static let piperMap: [(phoneme: String, id: Int)] = [("_", 0), ("^", 1), ("$", 2), (" ", 3), ("a", 14), ("ə", 59)]

    @Test func aPhonemeMapBecomesSymbolIDLinesWithTheSpaceAsABareID() throws {
        let table = try TokenTable(phonemeIDs: Self.piperMap)
        #expect(table.text == "_ 0\n^ 1\n$ 2\n 3\na 14\nə 59\n")
    }

    @Test func theWrittenTextReadsBackAsTheSameTable() throws {
        let table = try TokenTable(phonemeIDs: Self.piperMap)
        #expect(try TokenTable(text: table.text) == table)
    }

    @Test func aLineOfTwoSpacesAndAnIDIsTheSpace() throws {
        // sherpa-onnx's own add_meta_data.py writes the space as "  3".
        let table = try TokenTable(text: "_ 0\n^ 1\n$ 2\n  3\r\n")
        #expect(table.entries.last?.symbol == " ")
        #expect(table.entries.last?.id == 3)
    }

    @Test func coquisBlankIsSkipped() throws {
        #expect(try TokenTable(text: "_ 0\n^ 1\n$ 2\n<BLNK> 9\n").entries.count == 3)
    }

    @Test func aPhonemeOfTwoCharactersIsRefused() {
        #expect(throws: TokenTable.Reason.notOneCharacter("ab")) {
            try TokenTable(phonemeIDs: Self.piperMap + [("ab", 90)])
        }
    }

    @Test func aTabAsAPhonemeIsRefused() {
        #expect(throws: TokenTable.Reason.whitespaceSymbol(9)) {
            try TokenTable(phonemeIDs: Self.piperMap + [("\t", 90)])
        }
    }

    @Test func aDuplicateSymbolIsRefused() {
        #expect(throws: TokenTable.Reason.duplicate("a")) { try TokenTable(text: "_ 0\n^ 1\n$ 2\na 4\na 5\n") }
    }

    @Test(arguments: ["_", "^", "$"])
    func piperPadStartAndEndAreRequired(symbol: String) {
        let map = Self.piperMap.filter { $0.phoneme != symbol }
        #expect(throws: TokenTable.Reason.missingSymbol(symbol)) { try TokenTable(phonemeIDs: map) }
    }

    @Test(arguments: ["_ x\n", "_ 0 1\n", "_\n"])
    func anUnreadableLineIsRefused(text: String) {
        #expect(throws: TokenTable.Reason.self) { try TokenTable(text: text) }
    }
}
