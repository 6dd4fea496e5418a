/// Bounds on what reading an untrusted archive may cost.
///
/// libzip does not enforce the sizes an archive declares (it happily inflates 4 MB out of an entry
/// that declared 1 KB), so `ZipArchive` checks declared sizes before reading and caps its read loop.
public struct ZipLimits: Sendable, Equatable {
    /// Largest entry read, declared or actual, in bytes.
    public var maxEntryBytes: Int
    /// Largest ratio of uncompressed to compressed size accepted for entries above
    /// `ratioCheckThreshold` bytes. Text compresses about 3:1 to 10:1; 1000:1 is a bomb.
    public var maxCompressionRatio: Int
    /// Entries smaller than this are never refused for their ratio (tiny files of spaces compress well).
    public var ratioCheckThreshold: Int
    /// Most bytes read from one archive over its lifetime, all entries together.
    public var maxTotalBytes: Int
    /// Most entries an archive may list.
    public var maxEntries: Int

    /// Creates limits.
    public init(
        maxEntryBytes: Int, maxCompressionRatio: Int, ratioCheckThreshold: Int, maxTotalBytes: Int, maxEntries: Int
    ) {
        self.maxEntryBytes = maxEntryBytes
        self.maxCompressionRatio = maxCompressionRatio
        self.ratioCheckThreshold = ratioCheckThreshold
        self.maxTotalBytes = maxTotalBytes
        self.maxEntries = maxEntries
    }

    /// 256 MiB per entry (the largest real EPUB resources are images and audio of tens of MB);
    /// ratio 1000:1 above 1 MiB; 1 GiB read in total; 100,000 entries.
    public static let `default` = ZipLimits(
        maxEntryBytes: 256 << 20, maxCompressionRatio: 1000, ratioCheckThreshold: 1 << 20,
        maxTotalBytes: 1 << 30, maxEntries: 100_000)
}
