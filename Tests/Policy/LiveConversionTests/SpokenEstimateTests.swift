import Foundation
import TestSupport
import Testing

@testable import LiveConversion

@Suite("The estimate reckons the text as the conversion would speak it")
struct SpokenEstimateTests {
    /// The estimate of a one-page book whose page says `text`, with `options`.
    static func estimate(ofPage text: String, options: ConversionOptions = ConversionOptions()) throws
        -> OutputEstimate
    {
        let folder = try TemporaryFolder()
        let path = try SmallEPUB(entries: [.init(title: "Chapter 1", body: "<h1>Chapter 1</h1><p>\(text)</p>")])
            .write(into: folder.path)
        let book = try OpenedBook.open(path: path, options: options.sections)
        return LiveConversion.estimate(of: book, options: options)
    }

    @Test("a year is spoken as several words, and the estimate hears them (not with the text as written)")
    func normalisedNumbers() throws {
        let year = try Self.estimate(ofPage: "It rained in 1841 and 1842.")
        let words = try Self.estimate(ofPage: "It rained in June and July.")
        // "eighteen forty-one" and "eighteen forty-two": two words of 16 letters each where a month is
        // one word of four letters.
        let more = 2 * (SpokenLength.secondsPerWord + 12 * SpokenLength.secondsPerLetter)
        #expect(year.audioSeconds - words.audioSeconds > more * 0.9, "\(year.audioSeconds) \(words.audioSeconds)")
        #expect(year.sectionBytes > words.sectionBytes)
        let asWritten = ConversionOptions(normalize: false)
        let yearAsWritten = try Self.estimate(ofPage: "It rained in 1841 and 1842.", options: asWritten)
        let wordsAsWritten = try Self.estimate(ofPage: "It rained in June and July.", options: asWritten)
        // As written, a year is one word without letters: no longer than a month.
        #expect(yearAsWritten.audioSeconds <= wordsAsWritten.audioSeconds)
    }

    @Test("a one-page book: its title and its pauses are most of its audio, and the estimate holds them")
    func onePage() throws {
        let estimate = try Self.estimate(ofPage: "Call me Ishmael.")
        // The title, spoken, and the page: four words, 1.4 s at the rate; the file is about 4.7 s.
        #expect(estimate.audioSeconds > 4 && estimate.audioSeconds < 5.5, "\(estimate.audioSeconds)")
        // The rate still counts.
        let slow = try Self.estimate(ofPage: "Call me Ishmael.", options: ConversionOptions(rate: 90))
        #expect(slow.audioSeconds > estimate.audioSeconds)
    }
}
