import Bundling
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension OutputEstimate {
    /// What `sections` section files holding `length` of audio (`SpokenLength`) take as `encoding`,
    /// with a `bundle` when one is made, each section file carrying a cover of `coverBytes` when the
    /// format embeds one (every format but WAV).
    ///
    /// Speech and silence are counted apart: FLAC, MP3, Vorbis and Opus write a second of silence in
    /// a few hundred bytes to about 1.4 kB (`silenceBytesPerSecond`), which matters for a book of
    /// short pages, mostly pauses.
    public init(
        length: SpokenLength, sections: Int, encoding: AudioEncoding, bundle: BundleFormat? = nil, coverBytes: Int = 0
    ) {
        let perFile = Self.fileOverheadBytes + (encoding.format == .wav ? 0 : max(0, coverBytes))
        let audio =
            length.speechSeconds * Self.speechBytesPerSecond(encoding) + length.silenceSeconds
            * Self.silenceBytesPerSecond(encoding.format)
        let sectionBytes = audio + Double(sections) * Double(perFile)
        let bundled =
            bundle.map { length.seconds * Self.bundleBytesPerSecond($0) + Double(max(0, coverBytes)) } ?? 0
        self.init(
            audioSeconds: length.seconds, sectionBytes: Int64(sectionBytes.rounded(.up)),
            bundleBytes: Int64(bundled.rounded(.up)), format: encoding.format.rawValue, bundle: bundle?.rawValue)
    }

    /// The same from the words of the sections read (`totals`) at `wordsPerMinute`, for a book whose
    /// text could not be read ahead: `ReadingTotals.readMinutes` (the `--list` duration) and the
    /// pauses around each section (`sectionPauseSeconds`). It misses what `SpokenLength` counts
    /// besides the words (a one-page book is 10–50% longer).
    public init(
        totals: ReadingTotals, wordsPerMinute: Int, encoding: AudioEncoding, bundle: BundleFormat? = nil,
        coverBytes: Int = 0
    ) {
        let length = SpokenLength(
            speechSeconds: totals.readMinutes(wordsPerMinute: wordsPerMinute) * 60,
            silenceSeconds: Double(totals.readSections) * Self.sectionPauseSeconds)
        self.init(
            length: length, sections: totals.readSections, encoding: encoding, bundle: bundle, coverBytes: coverBytes)
    }

    /// Silence every section read holds whatever its words: the pauses before and after its title and
    /// the one that ends it (`ChunkerOptions`). A book of many short sections is mostly this (a page of
    /// four words makes about 4.7 s of audio, of which its words at the rate are 1.4 s).
    static let sectionPauseSeconds =
        Double(ChunkerOptions().headingBeforeMS + ChunkerOptions().headingAfterMS + ChunkerOptions().sectionEndMS)
        / 1_000

    /// Headers and tags of one section file, roughly (a WAV header is 44 bytes, ID3 and Vorbis tags a
    /// few hundred).
    static let fileOverheadBytes = 1_024

    /// Bytes a second of a section file: 16-bit mono PCM at espeak-ng's 22,050 Hz for WAV; for the
    /// others, measured with libsndfile 1.2 on the sample books (espeak-ng speech, `en`, 175 words a
    /// minute) at each `--quality` in `compressedRates` and without one (`defaultRates`), interpolated
    /// in between. Neural voices are resampled to the same rate.
    static func sectionBytesPerSecond(_ encoding: AudioEncoding) -> Double {
        guard encoding.format != .wav else { return 22_050 * 2 }
        guard let level = encoding.compressionLevel, let points = compressedRates[encoding.format] else {
            return defaultRates[encoding.format] ?? 22_050 * 2
        }
        return interpolate(points, at: min(1, max(0, level)))
    }

    /// Bytes a second of silence in a section file of `format`: WAV's is its speech's; the others
    /// measured at the default quality on one-page books (mostly pauses) against the sample books
    /// (mostly speech).
    static func silenceBytesPerSecond(_ format: AudioFormat) -> Double {
        switch format {
        case .wav: 22_050 * 2
        case .flac: 750
        case .mp3: 1_300
        case .ogg, .opus: 1_400
        }
    }

    /// The share of silence in the sample books' audio that `sectionBytesPerSecond` was measured on
    /// (their pauses and the engine's silence around each chunk: 38 s of 418).
    static let measuredSilenceShare = 0.09

    /// Bytes a second of speech: `sectionBytesPerSecond` with the silence it was measured with taken out.
    static func speechBytesPerSecond(_ encoding: AudioEncoding) -> Double {
        let overall = sectionBytesPerSecond(encoding)
        let silence = min(overall, silenceBytesPerSecond(encoding.format))
        return (overall - measuredSilenceShare * silence) / (1 - measuredSilenceShare)
    }

    /// Bytes a second without `--quality`.
    static let defaultRates: [AudioFormat: Double] = [.flac: 21_400, .mp3: 8_600, .ogg: 6_100, .opus: 4_200]

    /// Bytes a second at `--quality` 0, 0.25, 0.5, 0.75, 0.9 and 1 (MP3: 1 is refused by the encoder).
    static let compressedRates: [AudioFormat: [(level: Double, bytes: Double)]] = [
        .flac: [(0, 22_500), (0.25, 22_500), (0.5, 22_400), (0.75, 21_250), (0.9, 21_050), (1, 20_950)],
        .mp3: [(0, 12_000), (0.25, 9_900), (0.5, 7_550), (0.75, 5_350), (0.9, 4_500), (1, 4_500)],
        .ogg: [(0, 11_600), (0.25, 9_200), (0.5, 6_950), (0.75, 5_100), (0.9, 4_100), (1, 3_400)],
        .opus: [(0, 29_250), (0.25, 22_150), (0.5, 15_050), (0.75, 7_900), (0.9, 3_700), (1, 850)],
    ]

    /// Bytes a second of a bundle, as ffmpeg makes it (`AudiobookBundler`: AAC and MP3 at 64 kbit/s,
    /// Opus at 32 kbit/s, Vorbis at quality 4, FLAC), measured on the sample books.
    static func bundleBytesPerSecond(_ format: BundleFormat) -> Double {
        switch format {
        case .m4b: 9_100
        case .mp3: 8_000
        case .opus: 3_800
        case .ogg: 6_200
        case .flac: 21_000
        }
    }

    private static func interpolate(_ points: [(level: Double, bytes: Double)], at level: Double) -> Double {
        guard var previous = points.first else { return 0 }
        for point in points.dropFirst() {
            if level <= point.level {
                let span = point.level - previous.level
                let share = span > 0 ? (level - previous.level) / span : 0
                return previous.bytes + (point.bytes - previous.bytes) * share
            }
            previous = point
        }
        return previous.bytes
    }
}

/// Whether what a conversion will write fits on the disk of its output folder, decided before the
/// first byte is written.
public enum SpaceCheck: Hashable, Sendable {
    /// Enough room, with headroom to spare.
    case fits
    /// It should fit, but with less than `headroom` times the estimate plus `margin` free: a warning.
    case tight
    /// Less free than the estimate: the conversion is refused (exit 5) unless forced.
    case tooSmall

    /// Free space wanted beyond the estimate before the check stops warning: the estimate's error
    /// (docs/cli.md) and the manifest, cover and temporary files besides the audio.
    public static let headroom = 1.2
    /// Bytes wanted free besides `headroom` (the other files on the disk keep growing too).
    public static let margin: Int64 = 100_000_000

    /// The decision for `needed` bytes to write where `free` bytes are available.
    public static func decide(needed: Int64, free: Int64) -> SpaceCheck {
        guard needed > 0 else { return .fits }
        if free < needed { return .tooSmall }
        if Double(free) < Double(needed) * headroom + Double(margin) { return .tight }
        return .fits
    }

    /// Bytes an unprivileged process may still write on the file system that holds `path`, or its
    /// nearest existing parent folder (an output folder is made by the run); nil when unknown.
    public static func freeBytes(at path: String) -> Int64? {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        while !FileManager.default.fileExists(atPath: url.path) && url.path != "/" { url.deleteLastPathComponent() }
        var info = statvfs()
        guard statvfs(url.path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// Bytes of the audio already in `folder` in `format` (and of a `bundle` there): what a resumed
    /// conversion keeps, taken off its estimate.
    public static func bytesWritten(in folder: String, format: AudioFormat, bundle: BundleFormat? = nil) -> Int64 {
        let extensions = Set([format.fileExtension] + (bundle.map { [$0.fileExtension] } ?? []))
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
        var total: Int64 = 0
        for name in names where extensions.contains(URL(fileURLWithPath: name).pathExtension.lowercased()) {
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)
            total += (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        }
        return total
    }
}
