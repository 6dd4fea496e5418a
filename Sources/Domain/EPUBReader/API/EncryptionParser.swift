import Markup

/// Parses `META-INF/encryption.xml` (OCF 3.0 §3.5.5): which files are encrypted, and how.
///
/// Pure over bytes. Deciding whether that makes the book unreadable is `EPUBBook`'s job.
public struct EncryptionParser: Sendable {
    /// One encrypted file.
    public struct EncryptedFile: Hashable, Sendable {
        /// Container path of the file (percent-decoded, relative to the container root).
        public var path: String
        /// `EncryptionMethod/@Algorithm`.
        public var algorithm: String
        /// `KeyInfo/RetrievalMethod/@URI`, when given (`license.lcpl#/encryption/content_key` for LCP).
        public var keyReference: String?

        /// True for the two font-obfuscation algorithms, which are not DRM (OCF §4.3).
        public var isFontObfuscation: Bool { EncryptionParser.fontObfuscationAlgorithms.contains(algorithm) }
    }

    /// IDPF font obfuscation and Adobe's older variant.
    public static let fontObfuscationAlgorithms: Set<String> = [
        "http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC",
    ]

    /// The files `encryption.xml` says are encrypted.
    public let files: [EncryptedFile]

    /// - Throws: `EPUBError.malformedXML`, `.limitExceeded`.
    public init(bytes: [UInt8], path: String = "META-INF/encryption.xml") throws {
        let document = try parseRequiredXML(bytes, file: path)
        files = document.root.descendantElements("EncryptedData").compactMap { data in
            guard let uri = data.first(named: "CipherReference")?.anyAttribute("URI"),
                let (decoded, _) = ContainerPath.split(href: uri),
                let resolved = ContainerPath.resolve(decoded, against: "")
            else { return nil }
            let algorithm = data.childElement("EncryptionMethod")?.anyAttribute("Algorithm") ?? ""
            let key = data.first(named: "RetrievalMethod")?.anyAttribute("URI")
            return EncryptedFile(path: resolved, algorithm: algorithm.trimmingWhitespace(), keyReference: key)
        }
    }
}
