import Foundation
import Testing

/// Issue 12: a French quotation in an English book is read by the French voice, then the English
/// voice takes over again. Checked on the audio itself, against the same section read by one voice.
@Suite("A quotation in another language switches the voice, then back")
struct VoiceSwitchCLITests {
    static let before = "The keeper opened the logbook and read the first line aloud to nobody."
    static let french = "Le vent soufflait sur la mer, et les mouettes criaient au-dessus du vieux phare."
    static let after = "Then he closed the book and climbed the stairs to light the lamp."

    /// The samples of chapter 1, converted from a one-chapter English book.
    static func samples(_ chapter: TestBook.Chapter, in scratch: Scratch, name: String) async throws -> (
        samples: [Int16], rate: Int
    ) {
        let url = scratch.file(name + ".epub")
        try TestBook(title: "The Log", chapters: [chapter]).write(to: url)
        let out = scratch.file(name).path
        let result = try await BinaryRunner.run([url.path, "-o", out, "--progress", "none"], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        let data = try #require(Conversions.audio(out).values.first)
        let info = try readWAV(data)
        let pcm = data.subdata(in: info.dataOffset..<info.dataOffset + info.dataBytes)
        let values = pcm.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        return (values, Int(info.sampleRate))
    }

    @Test("the English text around the quotation is the English voice's; the quotation is not")
    func quotationSwitchesAndComesBack() async throws {
        let scratch = try Scratch("voice-switch")
        let switched = try await Self.samples(
            TestBook.Chapter(title: "One", paragraphs: [Self.before, Self.after], quotation: ("fr", Self.french)),
            in: scratch, name: "switched")
        // The same section with the quotation unmarked: one voice, English, throughout.
        let single = try await Self.samples(
            TestBook.Chapter(title: "One", paragraphs: [Self.before, Self.french, Self.after]),
            in: scratch, name: "single")
        let a = switched.samples
        let b = single.samples
        let prefix = zip(a, b).prefix { $0 == $1 }.count
        let suffix = zip(a.reversed(), b.reversed()).prefix { $0 == $1 }.count
        let second = switched.rate
        // The title and the first sentence: the same voice, so the same samples.
        #expect(prefix >= 2 * second, "only \(Double(prefix) / Double(second)) s in common at the start")
        // The quotation: other samples, of another length (French phonemes, French rhythm).
        let middleA = a.count - prefix - min(suffix, a.count - prefix)
        let middleB = b.count - prefix - min(suffix, b.count - prefix)
        #expect(middleA > second && middleB > second)
        #expect(abs(middleA - middleB) > second / 10, "the quotation sounds the same in both")
        // Back to English: the last sentence is read as the single-voice section reads it.
        #expect(suffix >= second, "only \(Double(suffix) / Double(second)) s in common at the end")
    }
}
