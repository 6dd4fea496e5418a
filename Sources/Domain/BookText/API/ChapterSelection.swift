/// A set of section numbers as the user types it: `1-5,8,10-` (single numbers, ranges, open ranges).
public struct ChapterSelection: Hashable, Sendable, CustomStringConvertible {
    /// One piece of the selection.
    public enum Piece: Hashable, Sendable {
        case single(Int)
        /// `a-b`, both included.
        case range(Int, Int)
        /// `a-`: from `a` to the last section.
        case from(Int)
    }

    /// The numbers and ranges, in the order given.
    public let pieces: [Piece]

    /// Parses `text`. Throws `BookTextError.invalidChapterSelection` naming the bad part for
    /// empty input, zero or negative numbers, reversed ranges ("5-3"), words, or doubled dashes.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            throw BookTextError.invalidChapterSelection(text, reason: "empty; expected numbers such as 1-5,8,10-")
        }
        var pieces: [Piece] = []
        for raw in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let part = raw.trimmingCharacters(in: .whitespaces)
            guard !part.isEmpty else {
                throw BookTextError.invalidChapterSelection(text, reason: "empty item between commas")
            }
            pieces.append(try Self.parsePiece(part))
        }
        self.pieces = pieces
    }

    private static func parsePiece(_ part: String) throws -> Piece {
        func number(_ text: Substring) throws -> Int {
            let digits = text.trimmingCharacters(in: .whitespaces)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let value = Int(digits)
            else {
                throw BookTextError.invalidChapterSelection(part, reason: "not a number")
            }
            guard value >= 1 else {
                throw BookTextError.invalidChapterSelection(part, reason: "sections are numbered from 1")
            }
            return value
        }
        let dashes = part.filter { $0 == "-" }.count
        if dashes == 0 { return .single(try number(Substring(part))) }
        guard dashes == 1 else {
            throw BookTextError.invalidChapterSelection(part, reason: "a range has one dash, as in 3-7")
        }
        let sides = part.split(separator: "-", omittingEmptySubsequences: false)
        if sides[1].trimmingCharacters(in: .whitespaces).isEmpty { return .from(try number(sides[0])) }
        guard !sides[0].trimmingCharacters(in: .whitespaces).isEmpty else {
            throw BookTextError.invalidChapterSelection(
                part, reason: "a range needs a first number, as in 1-\(sides[1])")
        }
        let first = try number(sides[0])
        let last = try number(sides[1])
        guard first <= last else {
            throw BookTextError.invalidChapterSelection(
                part, reason: "the range is backwards; did you mean \(last)-\(first)?")
        }
        return .range(first, last)
    }

    /// Whether section `number` is selected.
    public func contains(_ number: Int) -> Bool {
        pieces.contains { piece in
            switch piece {
            case .single(let chosen): chosen == number
            case .range(let first, let last): (first...last).contains(number)
            case .from(let first): number >= first
            }
        }
    }

    /// Throws `BookTextError.chapterOutOfRange` when a number or either end of a range lies beyond `count`
    /// (an open range, `18-`, is how to say "to the end").
    public func validate(sectionCount count: Int) throws {
        for piece in pieces {
            switch piece {
            case .single(let chosen) where chosen > count: throw BookTextError.chapterOutOfRange(chosen, count: count)
            case .range(let first, _) where first > count: throw BookTextError.chapterOutOfRange(first, count: count)
            // "18-999" on a 20-section book names sections that do not exist, as "999" does: say so
            // rather than read 18-20 silently (an open range, "18-", is the way to say "to the end").
            case .range(_, let last) where last > count: throw BookTextError.chapterOutOfRange(last, count: count)
            case .from(let first) where first > count: throw BookTextError.chapterOutOfRange(first, count: count)
            default: continue
            }
        }
    }

    /// The selected numbers among `1...count`, ascending.
    public func numbers(sectionCount count: Int) -> [Int] {
        count < 1 ? [] : (1...count).filter(contains)
    }

    /// The selection as it would be written on the command line (`1-5,8,12-`).
    public var description: String {
        pieces.map { piece in
            switch piece {
            case .single(let chosen): "\(chosen)"
            case .range(let first, let last): "\(first)-\(last)"
            case .from(let first): "\(first)-"
            }
        }.joined(separator: ",")
    }
}
