/// The size of what a conversion will write, estimated before it starts (`--list`, the free-space
/// check before the first section): the audio's length from the words at the speaking rate, then
/// bytes for the format. An estimate, not a promise: the measured error is in docs/cli.md.
///
/// The figures come from the policy layer (`OutputEstimate.init(totals:...)` in LiveConversion),
/// which knows the writer's rates; this type only carries them (it is in `--list --json`).
public struct OutputEstimate: Hashable, Sendable, Codable {
    /// Seconds of audio of the sections read.
    public var audioSeconds: Double
    /// Bytes of the section files (with the cover embedded in each, when it is).
    public var sectionBytes: Int64
    /// Bytes of the one-file audiobook (`--bundle`), 0 without one.
    public var bundleBytes: Int64
    /// Everything: `sectionBytes + bundleBytes`.
    public var bytes: Int64
    /// The section files' format the bytes are for (`wav`, `mp3`...).
    public var format: String
    /// The bundle's format, when one is made.
    public var bundle: String?

    /// An estimate of `audioSeconds` of audio written as `sectionBytes` (in `format`) plus a bundle.
    public init(
        audioSeconds: Double, sectionBytes: Int64, bundleBytes: Int64 = 0, format: String, bundle: String? = nil
    ) {
        self.audioSeconds = audioSeconds
        self.sectionBytes = sectionBytes
        self.bundleBytes = bundleBytes
        self.bytes = sectionBytes + bundleBytes
        self.format = format
        self.bundle = bundle
    }

    /// This estimate with the read-along book (`--bundle epub`) added to the bundle bytes: it carries
    /// the section files themselves and the book's own `bookBytes` (its text, pictures and fonts).
    public func addingReadAlong(bookBytes: Int64) -> OutputEstimate {
        OutputEstimate(
            audioSeconds: audioSeconds, sectionBytes: sectionBytes,
            bundleBytes: bundleBytes + sectionBytes + max(0, bookBytes), format: format, bundle: bundle ?? "epub")
    }

    /// The estimate of several books together (a batch), in the format of the first.
    public static func sum(_ estimates: [OutputEstimate]) -> OutputEstimate {
        OutputEstimate(
            audioSeconds: estimates.reduce(0) { $0 + $1.audioSeconds },
            sectionBytes: estimates.reduce(0) { $0 + $1.sectionBytes },
            bundleBytes: estimates.reduce(0) { $0 + $1.bundleBytes }, format: estimates.first?.format ?? "wav",
            bundle: estimates.first?.bundle)
    }
}
