import Foundation
import Testing

@testable import ServerCore

/// What a job is checked for before it is stored (`ConversionAdapter.validate`).
@Suite struct JobValidationTests {
    /// A bundle needs ffmpeg, whatever the voice: `auto` is not let through unchecked.
    @Test(arguments: ["auto", "AUTO", "en"])
    func aBundleWithoutFFmpegIsRefused(voice: String) {
        let options = JobOptions(voice: voice, bundle: "m4b")
        #expect(throws: ConversionAdapter.Failure.self) { try ConversionAdapter.validate(options, ffmpeg: nil) }
        #expect(throws: Never.self) { try ConversionAdapter.validate(options, ffmpeg: "/usr/bin/ffmpeg") }
    }

    /// A bundle format the CLI does not know is refused even with ffmpeg.
    @Test func anUnknownBundleIsRefused() {
        #expect(throws: ConversionAdapter.Failure.self) {
            try ConversionAdapter.validate(JobOptions(bundle: "wav"), ffmpeg: "/usr/bin/ffmpeg")
        }
    }

    /// Subtitles as the CLI takes them: srt or vtt, word timing with vtt only.
    @Test(arguments: [
        (JobOptions(subtitles: "ass"), false), (JobOptions(subtitlesWords: true), false),
        (JobOptions(subtitles: "srt", subtitlesWords: true), false), (JobOptions(subtitles: "srt"), true),
        (JobOptions(subtitles: "vtt", subtitlesWords: true), true),
    ])
    func subtitlesAreCheckedAsTheCLIChecksThem(options: JobOptions, accepted: Bool) {
        if accepted {
            #expect(throws: Never.self) { try ConversionAdapter.validate(options, ffmpeg: nil) }
        } else {
            #expect(throws: ConversionAdapter.Failure.self) { try ConversionAdapter.validate(options, ffmpeg: nil) }
        }
    }
}
