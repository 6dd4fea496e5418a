// fuzz-chapters: the `--chapters` parser (ChapterSelection) on arbitrary text. Besides crashes it checks that a
// parsed selection prints as text that parses back to the same selection, and that `numbers` agrees with
// `contains` and `validate`.
import BookText
import FuzzSupport

/// libFuzzer's entry point: one input, 0 when it was handled (a crash or a trap is the finding).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let selection = try? ChapterSelection(parsing: text) else { return 0 }
    guard let reparsed = try? ChapterSelection(parsing: selection.description), reparsed == selection else {
        fatalError("\"\(selection)\" (from \(text.debugDescription)) does not parse back to itself")
    }
    // Section counts a real book can have; the parser accepts numbers up to Int.max.
    for count in [0, 1, 7, 500] {
        let numbers = selection.numbers(sectionCount: count)
        precondition(numbers == (0...count).filter { $0 >= 1 && selection.contains($0) }, "numbers/contains disagree")
        if (try? selection.validate(sectionCount: count)) != nil && count > 0 {
            precondition(!numbers.isEmpty, "\"\(selection)\" validates for \(count) sections but selects none")
        }
    }
    blackHole(selection.contains(Int.max))
    blackHole(selection.contains(Int.min))
    return 0
}
