import BookText
import Testing

@Suite struct ChapterSelectionTests {
    @Test(arguments: [
        ("1-5,8,10-", [1, 2, 3, 4, 5, 8, 10, 11, 12]),
        ("3", [3]),
        ("2-2", [2]),
        (" 1 , 4 - 5 ", [1, 4, 5]),
        ("11-", [11, 12]),
        ("12-20", [12]),
    ])
    func selects(text: String, expected: [Int]) throws {
        let selection = try ChapterSelection(parsing: text)
        #expect(selection.numbers(sectionCount: 12) == expected)
    }

    @Test(arguments: [
        ("", ""), ("5-3", "5-3"), ("0", "0"), ("a", "a"), ("1--2", "1--2"), ("1,,2", "1,,2"), ("-3", "-3"),
        ("2-x", "2-x"), ("1.5", "1.5"), ("-", "-"),
    ])
    func rejects(text: String, namedPart: String) {
        #expect {
            try ChapterSelection(parsing: text)
        } throws: { error in
            guard case BookTextError.invalidChapterSelection(let part, _) = error else { return false }
            return part == namedPart
        }
    }

    @Test func backwardsRangeSuggestsTheFix() {
        let error = #expect(throws: BookTextError.self) { try ChapterSelection(parsing: "5-3") }
        #expect(error?.description.contains("3-5") == true)
    }

    @Test func validatesAgainstSectionCount() throws {
        try ChapterSelection(parsing: "1-3,10-").validate(sectionCount: 10)
        #expect(throws: BookTextError.chapterOutOfRange(11, count: 10)) {
            try ChapterSelection(parsing: "2,11").validate(sectionCount: 10)
        }
        #expect(throws: BookTextError.chapterOutOfRange(12, count: 10)) {
            try ChapterSelection(parsing: "12-").validate(sectionCount: 10)
        }
    }

    @Test func containsAndDescription() throws {
        let s = try ChapterSelection(parsing: "2-4,7-")
        #expect(s.contains(3) && s.contains(100) && !s.contains(1) && !s.contains(5))
        #expect(s.description == "2-4,7-")
    }
}
