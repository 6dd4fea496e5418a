import Foundation
import Testing

@testable import ServerCore

/// The plan's JSON, as stored in a job's row: the typed source options read the rows earlier versions
/// wrote (`sourceOptions` a `[String: String]`), and write rows those versions read.
@Suite struct JobPlanFormatTests {
    /// The plan as versions before the typed field wrote and read it.
    struct EarlierPlan: Codable, Equatable {
        var voice: String
        var sourceOptions: [String: String]
        var sections: [Int]
        var displayTitle: String
    }

    @Test(arguments: [[:], ["language": "it"]]) func anEarlierPlanReadsAsItWasMeant(_ options: [String: String]) throws
    {
        let earlier = EarlierPlan(voice: "roa/it", sourceOptions: options, sections: [1, 3], displayTitle: "Libro")
        let plan = try JSONDecoder().decode(JobPlan.self, from: try JSONEncoder().encode(earlier))
        #expect(plan.sourceOptions.language == options["language"])
        #expect(plan.voice == "roa/it")
        #expect(plan.sections == [1, 3])
        #expect(plan.displayTitle == "Libro")
    }

    @Test(arguments: [nil, "it"]) func aPlanReadsAsEarlierVersionsExpect(_ language: String?) throws {
        let plan = JobPlan(
            voice: "roa/it", sourceOptions: JobPlan.SourceOptions(language: language), sections: [2],
            displayTitle: "Libro")
        let earlier = try JSONDecoder().decode(EarlierPlan.self, from: try JSONEncoder().encode(plan))
        #expect(earlier.sourceOptions == (language.map { ["language": $0] } ?? [:]))
        #expect(try JSONDecoder().decode(JobPlan.self, from: try JSONEncoder().encode(plan)) == plan)
    }
}

/// `engine` in a job's options: left out of the stored JSON when `auto`, so that jobs stored before it existed
/// keep their canonical form (and their idempotency).
@Suite struct JobOptionsEngineTests {
    @Test func autoIsLeftOutAndTheOthersAreKept() throws {
        #expect(!JobOptions().canonicalJSON.contains("engine"))
        let earlier = #"{"format":"wav","notes":"skip","pitch":50,"rate":175,"voice":"auto","volume":100}"#
        #expect(try JobOptions.decode(earlier) == JobOptions())
        #expect(JobOptions().canonicalJSON == earlier)
        let neural = JobOptions(engine: "neural")
        #expect(neural.canonicalJSON.contains(#""engine":"neural""#))
        #expect(try JobOptions.decode(neural.canonicalJSON) == neural)
        #expect(try ServiceAPI.options(.init(engine: .auto)).engine == nil)
        #expect(try ServiceAPI.options(.init(engine: .neural)).engine == "neural")
    }

    @Test func theEngineReachesTheLibrarysOptions() throws {
        let options = try ConversionAdapter.conversionOptions(JobOptions(engine: "neural"), workers: .inProcess)
        #expect(options.engine == .neural)
        #expect(try ConversionAdapter.conversionOptions(JobOptions(), workers: .inProcess).engine == .auto)
    }
}

/// `subtitles` and `subtitlesWords` in a job's options: left out of the stored JSON when absent (and
/// `subtitlesWords` when false), so that jobs stored before them keep their canonical form.
@Suite struct JobOptionsSubtitlesTests {
    @Test func absentSubtitlesAreLeftOut() throws {
        let earlier = #"{"format":"wav","notes":"skip","pitch":50,"rate":175,"voice":"auto","volume":100}"#
        #expect(JobOptions().canonicalJSON == earlier)
        #expect(JobOptions(subtitlesWords: false).canonicalJSON == earlier)
        let words = JobOptions(subtitles: "vtt", subtitlesWords: true)
        #expect(words.canonicalJSON.contains(#""subtitles":"vtt","subtitlesWords":true"#))
        #expect(try JobOptions.decode(words.canonicalJSON) == words)
    }

    @Test func theRequestsSubtitlesReachTheLibrarysOptions() throws {
        let options = try ServiceAPI.options(.init(subtitles: .vtt, subtitlesWords: true))
        #expect(options == JobOptions(subtitles: "vtt", subtitlesWords: true))
        #expect(try ServiceAPI.options(.init(subtitles: .srt, subtitlesWords: false)).subtitlesWords == nil)
        #expect(throws: ConversionAdapter.Failure.self) {
            try ServiceAPI.options(.init(subtitles: .srt, subtitlesWords: true))
        }
        #expect(throws: ConversionAdapter.Failure.self) { try ServiceAPI.options(.init(subtitlesWords: true)) }
        let library = try ConversionAdapter.conversionOptions(options, workers: .inProcess)
        #expect(library.subtitles == .init(format: .vtt, words: true))
        #expect(try ConversionAdapter.conversionOptions(JobOptions(), workers: .inProcess).subtitles == nil)
    }
}

/// `bundle: epub`, the read-along book: MP3 sections unless the job names a format (as the CLI), and
/// the library's `readAlong` rather than an audiobook bundle.
@Suite struct JobOptionsReadAlongTests {
    @Test func aReadAlongJobIsMP3UnlessItSaysOtherwise() throws {
        #expect(try ServiceAPI.options(.init(bundle: .epub)) == JobOptions(format: "mp3", bundle: "epub"))
        #expect(try ServiceAPI.options(.init(format: .opus, bundle: .epub)).format == "opus")
        #expect(try ServiceAPI.options(.init(format: .flac, bundle: .epub)).format == "flac")
        #expect(try ServiceAPI.options(.init(bundle: .m4b)).format == "wav")
    }

    @Test func theReadAlongBookReachesTheLibrarysOptions() throws {
        let library = try ConversionAdapter.conversionOptions(
            JobOptions(format: "mp3", bundle: "epub"), workers: .inProcess)
        #expect(library.readAlong)
        #expect(library.bundle == nil)
        #expect(library.encoding.format == .mp3)
        let audiobook = try ConversionAdapter.conversionOptions(JobOptions(bundle: "m4b"), workers: .inProcess)
        #expect(!audiobook.readAlong && audiobook.bundle == .m4b)
    }
}
