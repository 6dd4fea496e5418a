#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns a document's bytes into UTF-8 before libxml2 sees them, so the entity pre-pass works on
/// one encoding and libxml2 never has to guess.
///
/// Order: byte-order mark, then UTF-16 without a BOM (`<?` as 16-bit units), then the XML
/// declaration's `encoding`, then (HTML only) a `<meta charset>`/`http-equiv` declaration, then
/// UTF-8. Declared UTF-8 (or no declaration) that is not valid UTF-8 is read as Windows-1252 with
/// a warning: that is what such books almost always are.
enum TextEncoding {
    struct Decoded {
        var utf8: [UInt8]
        var warnings: [String]
    }

    static func toUTF8(_ bytes: [UInt8], lookForMetaCharset: Bool) -> Decoded {
        var warnings: [String] = []
        // Byte-order marks.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return utf8OrWindows1252(Array(bytes.dropFirst(3)), warnings: &warnings)
        }
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            return Decoded(utf8: utf32(bytes.dropFirst(4), bigEndian: false, warnings: &warnings), warnings: warnings)
        }
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) {
            return Decoded(utf8: utf32(bytes.dropFirst(4), bigEndian: true, warnings: &warnings), warnings: warnings)
        }
        if bytes.starts(with: [0xFF, 0xFE]) {
            return Decoded(utf8: utf16(bytes.dropFirst(2), bigEndian: false, warnings: &warnings), warnings: warnings)
        }
        if bytes.starts(with: [0xFE, 0xFF]) {
            return Decoded(utf8: utf16(bytes.dropFirst(2), bigEndian: true, warnings: &warnings), warnings: warnings)
        }
        // UTF-32 and UTF-16 without a BOM: `<` as a 32- or 16-bit unit.
        if bytes.starts(with: [0x00, 0x00, 0x00, 0x3C]) {
            return Decoded(utf8: utf32(bytes[...], bigEndian: true, warnings: &warnings), warnings: warnings)
        }
        if bytes.starts(with: [0x3C, 0x00, 0x00, 0x00]) {
            return Decoded(utf8: utf32(bytes[...], bigEndian: false, warnings: &warnings), warnings: warnings)
        }
        if bytes.count >= 4, bytes[0] == 0x3C, bytes[1] == 0, bytes[3] == 0 {
            return Decoded(utf8: utf16(bytes[...], bigEndian: false, warnings: &warnings), warnings: warnings)
        }
        if bytes.count >= 4, bytes[0] == 0, bytes[1] == 0x3C, bytes[2] == 0 {
            return Decoded(utf8: utf16(bytes[...], bigEndian: true, warnings: &warnings), warnings: warnings)
        }
        let declared = xmlDeclaredEncoding(bytes) ?? (lookForMetaCharset ? metaCharset(bytes) : nil)
        guard let declared else {
            return utf8OrWindows1252(bytes, warnings: &warnings)
        }
        switch normalized(declared) {
        case let name where utf8Names.contains(name):
            return utf8OrWindows1252(bytes, warnings: &warnings)
        case "usascii", "ascii", "iso88591", "latin1", "l1", "windows1252", "cp1252", "xcp1252", "iso885915":
            // Windows-1252 is a superset of Latin-1 for every printable character (as in HTML5).
            // A document labelled Latin-1 that is really UTF-8 is common too: keep valid UTF-8 as is.
            if String(validating: bytes, as: UTF8.self) != nil, bytes.contains(where: { $0 >= 0x80 }) {
                warnings.append("declared encoding \(declared) but the bytes are UTF-8: read as UTF-8")
                return Decoded(utf8: bytes, warnings: warnings)
            }
            return Decoded(utf8: windows1252(bytes), warnings: warnings)
        case "utf16", "utf16le", "utf16be", "utf32", "utf32le", "utf32be", "ucs4", "ucs2":
            // A 16/32-bit label on ASCII-compatible bytes (we saw no BOM, no zero bytes): the label is wrong.
            warnings.append("declared encoding \(declared) but the bytes are 8-bit: read as UTF-8")
            return utf8OrWindows1252(bytes, warnings: &warnings)
        default:
            if let converted = iconvToUTF8(bytes, from: declared) {
                return Decoded(utf8: converted, warnings: warnings)
            }
            warnings.append("unsupported or invalid encoding \(declared): read as UTF-8")
            return utf8OrWindows1252(bytes, warnings: &warnings)
        }
    }

    private static let utf8Names: Set<String> = ["utf8", "unicode11utf8", "unicode20utf8", "xunicode20utf8"]

    /// Whether `toUTF8(bytes, lookForMetaCharset: false)` keeps the bytes as they are when they are
    /// valid UTF-8: no byte-order mark, no 16- or 32-bit units, UTF-8 or no encoding declared.
    static func isUTF8ByLabel(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2 else { return true }
        let b0 = bytes[0]
        let b1 = bytes[1]
        // Every mark and unit pattern `toUTF8` looks for starts with one of these bytes or a zero.
        if b0 == 0xEF || b0 == 0xFF || b0 == 0xFE || b0 == 0 || b1 == 0 { return false }
        guard let declared = xmlDeclaredEncoding(bytes) else { return true }
        return utf8Names.contains(normalized(declared))
    }

    private static func utf8OrWindows1252(_ bytes: [UInt8], warnings: inout [String]) -> Decoded {
        // Validated in place: no copy of the document into a `String` that is thrown away.
        if (try? UTF8Span(validating: bytes.span)) != nil {
            return Decoded(utf8: bytes, warnings: warnings)
        }
        warnings.append("not valid UTF-8: read as Windows-1252")
        return Decoded(utf8: windows1252(bytes), warnings: warnings)
    }

    /// Lower case, letters and digits only (`ISO-8859-1` → `iso88591`).
    private static func normalized(_ name: String) -> String {
        let kept = name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }
        return String(String.UnicodeScalarView(kept))
    }

    /// The `encoding` pseudo-attribute of an XML declaration at the very start.
    static func xmlDeclaredEncoding(_ bytes: [UInt8]) -> String? {
        guard bytes.starts(with: Array("<?xml".utf8)) else { return nil }
        let end = bytes.prefix(512).firstIndex(of: UInt8(ascii: ">")) ?? min(bytes.count, 512)
        let declaration = String(decoding: bytes[0..<end], as: UTF8.self)
        return pseudoAttribute("encoding", in: declaration)
    }

    /// `charset` from `<meta charset="...">` or `<meta http-equiv content="...; charset=...">` in the first 2 KB.
    private static func metaCharset(_ bytes: [UInt8]) -> String? {
        let head = bytes.prefix(2048).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        guard let start = firstIndex(of: Array("charset=".utf8), in: head) else { return nil }
        var index = start + 8
        while index < head.count, head[index] == 0x22 || head[index] == 0x27 || head[index] == 0x20 { index += 1 }
        var value: [UInt8] = []
        while index < head.count, isNameByte(head[index]) {
            value.append(head[index])
            index += 1
        }
        return value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
    }

    /// The value of `name="..."` (or single quotes) in `text`.
    static func pseudoAttribute(_ name: String, in text: String) -> String? {
        let bytes = Array(text.utf8)
        guard let start = firstIndex(of: Array(name.utf8), in: bytes) else { return nil }
        var index = start + name.utf8.count
        func skipSpace() { while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 } }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        skipSpace()
        guard index < bytes.count, bytes[index] == 0x22 || bytes[index] == 0x27 else { return nil }
        let quote = bytes[index]
        let valueStart = index + 1
        guard let valueEnd = bytes[valueStart...].firstIndex(of: quote) else { return nil }
        return String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == 0x2D || byte == 0x5F || byte == 0x3A || byte == 0x2E
    }

    static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count)
        where haystack[start] == needle[0] && haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool, warnings: inout [String]) -> [UInt8] {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let first = UInt16(bytes[index])
            let second = UInt16(bytes[index + 1])
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        if bytes.count % 2 != 0 { warnings.append("UTF-16 document has an odd number of bytes") }
        var out: [UInt8] = []
        out.reserveCapacity(units.count)
        var invalid = false
        var iterator = units.makeIterator()
        var decoder = UTF16()
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): append(scalar, to: &out)
            case .emptyInput: break decoding
            case .error:
                append("\u{FFFD}", to: &out)
                invalid = true
            }
        }
        if invalid { warnings.append("invalid UTF-16 sequences replaced") }
        return out
    }

    private static func utf32(_ bytes: ArraySlice<UInt8>, bigEndian: Bool, warnings: inout [String]) -> [UInt8] {
        var out: [UInt8] = []
        var invalid = false
        var index = bytes.startIndex
        while index + 3 < bytes.endIndex {
            let b0 = UInt32(bytes[index])
            let b1 = UInt32(bytes[index + 1])
            let b2 = UInt32(bytes[index + 2])
            let b3 = UInt32(bytes[index + 3])
            let value: UInt32 = bigEndian ? (b0 << 24 | b1 << 16 | b2 << 8 | b3) : (b3 << 24 | b2 << 16 | b1 << 8 | b0)
            if let scalar = Unicode.Scalar(value) {
                append(scalar, to: &out)
            } else {
                append("\u{FFFD}", to: &out)
                invalid = true
            }
            index += 4
        }
        if invalid { warnings.append("invalid UTF-32 code points replaced") }
        return out
    }

    private static func append(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        UTF8.encode(scalar) { out.append($0) }
    }

    static func windows1252(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 {
                out.append(byte)
            } else if byte < 0xA0 {
                append(Unicode.Scalar(windows1252High[Int(byte) - 0x80]) ?? "\u{FFFD}", to: &out)
            } else {
                append(Unicode.Scalar(byte), to: &out)
            }
        }
        return out
    }

    /// 0x80...0x9F of Windows-1252; the five undefined bytes map to themselves (C1 controls), as browsers do.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
        0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x9D, 0x017E, 0x0178,
    ]

    /// Any other encoding glibc's iconv knows (Shift_JIS, GB18030, KOI8-R, ...). Nil when it does not.
    private static func iconvToUTF8(_ bytes: [UInt8], from encoding: String) -> [UInt8]? {
        let converter = iconv_open("UTF-8", encoding)
        if converter == iconv_t(bitPattern: -1) { return nil }
        defer { iconv_close(converter) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: bytes.count * 4 + 16)
        let used: Int? = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                var inPointer = UnsafeMutableRawPointer(inBuffer.baseAddress)?.assumingMemoryBound(to: CChar.self)
                var inLeft = inBuffer.count
                var outPointer = UnsafeMutableRawPointer(outBuffer.baseAddress)?.assumingMemoryBound(to: CChar.self)
                var outLeft = outBuffer.count
                while inLeft > 0 {
                    if iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) == -1 {
                        // Skip one undecodable byte and go on (EILSEQ, EINVAL); give up when out of room.
                        if errno == E2BIG { return nil }
                        inPointer = inPointer.map { $0 + 1 }
                        inLeft -= 1
                    }
                }
                return outBuffer.count - outLeft
            }
        }
        return used.map { Array(output.prefix($0)) }
    }
}
