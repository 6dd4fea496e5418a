import Markup

/// Parses `META-INF/container.xml` (OCF 3.0 §3.5.1) and picks the package document.
///
/// Pure over bytes. Several rootfiles: the first OPF one is used, with a warning.
public struct ContainerParser: Sendable {
    /// One `<rootfile>` as written.
    public struct Rootfile: Hashable, Sendable {
        /// Path of the package document inside the container (`full-path`).
        public var fullPath: String
        /// Its `media-type` attribute, when given.
        public var mediaType: String?
    }

    /// Every rootfile listed, in order.
    public let rootfiles: [Rootfile]
    /// Container path of the chosen package document (`OEBPS/content.opf`).
    public let packagePath: String
    /// Problems worked around while reading `container.xml`.
    public let warnings: [EPUBWarning]

    /// The media type of EPUB package documents.
    public static let packageMediaType = "application/oebps-package+xml"

    /// - Parameters:
    ///   - bytes: `container.xml` as stored.
    ///   - path: where the bytes came from, for messages.
    /// - Throws: `EPUBError.malformedXML`, `.missingRootfile` (none, or an empty `full-path`),
    ///   `.invalidRootfile` (leaves the container, or points at `container.xml` itself).
    public init(bytes: [UInt8], path: String = "META-INF/container.xml") throws {
        let document = try parseRequiredXML(bytes, file: path)
        var warnings: [EPUBWarning] = []
        let rootfiles = document.root.descendantElements("rootfile").compactMap { element -> Rootfile? in
            guard let fullPath = element.anyAttribute("full-path") else { return nil }
            return Rootfile(fullPath: fullPath, mediaType: element.anyAttribute("media-type"))
        }
        guard !rootfiles.isEmpty else {
            throw EPUBError.missingRootfile(container: path, reason: "no <rootfile> with a full-path")
        }
        let packages = rootfiles.filter { $0.mediaType == nil || $0.mediaType == Self.packageMediaType }
        let chosen = packages.first ?? rootfiles[0]
        if rootfiles.count > 1 {
            warnings.append(
                EPUBWarning(.minor, path: path, "\(rootfiles.count) rootfiles listed: using '\(chosen.fullPath)'"))
        }
        if let type = chosen.mediaType, type != Self.packageMediaType {
            warnings.append(EPUBWarning(.minor, path: path, "rootfile has media-type '\(type)'"))
        }
        var raw = chosen.fullPath.trimmingWhitespace()
        guard !raw.isEmpty else {
            throw EPUBError.missingRootfile(container: path, reason: "rootfile full-path is empty")
        }
        if raw.hasPrefix("/") {
            warnings.append(EPUBWarning(.minor, path: path, "rootfile full-path '\(raw)' starts with '/'"))
            raw.removeFirst()
        }
        guard let resolved = ContainerPath.resolve(raw, against: ""), !resolved.isEmpty else {
            throw EPUBError.invalidRootfile(path: chosen.fullPath, reason: "it points outside the container")
        }
        if resolved.lowercased() == "meta-inf/container.xml" {
            throw EPUBError.invalidRootfile(path: chosen.fullPath, reason: "it points at container.xml itself")
        }
        let known: Set<String> = ["rootfiles", "links"]
        for element in document.root.elements where !known.contains(element.name) {
            warnings.append(EPUBWarning(.minor, path: path, "unexpected element <\(element.name)> ignored"))
        }
        self.rootfiles = rootfiles
        self.packagePath = resolved
        self.warnings = warnings + document.warnings.map { EPUBWarning(.minor, path: path, $0) }
    }
}
