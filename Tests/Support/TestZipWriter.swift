// A minimal ZIP writer for tests: builds archives in memory, including ones that lie (declared
// sizes, encryption flags) so the reader's defences can be tested without fixture files.
// Shared by the test targets through the TestSupport target.

/// One entry of a test archive, its header fields free to lie.
public struct TestZipEntry {
    /// The name as stored (bytes: names that are not UTF-8 are tested too).
    public var name: [UInt8]
    /// Bytes as stored in the archive (compressed when `method` is 8).
    public var payload: [UInt8]
    /// The compression method: 0 stored, 8 deflated, anything else unsupported.
    public var method: UInt16
    /// The CRC-32 the headers declare.
    public var crc: UInt32
    /// The size the headers declare once uncompressed.
    public var uncompressedSize: UInt32
    /// The general-purpose flags (bit 0: encrypted).
    public var flags: UInt16 = 0

    /// An uncompressed entry.
    public static func stored(_ name: String, _ text: String) -> TestZipEntry { stored(name, Array(text.utf8)) }

    /// An uncompressed entry of raw bytes.
    public static func stored(_ name: String, _ data: [UInt8]) -> TestZipEntry {
        TestZipEntry(
            name: Array(name.utf8), payload: data, method: 0, crc: crc32(data), uncompressedSize: UInt32(data.count))
    }

    /// A deflated entry holding `count` zero bytes (a fixed-Huffman stream of length-258 matches, ~160:1).
    public static func deflatedZeros(_ name: String, count: Int) -> TestZipEntry {
        let zeros = [UInt8](repeating: 0, count: count)
        return TestZipEntry(
            name: Array(name.utf8), payload: deflateZeros(count: count), method: 8, crc: crc32(zeros),
            uncompressedSize: UInt32(count))
    }

    /// The entry marked as encrypted (general-purpose bit 0: traditional PKWARE encryption).
    public func encrypted() -> TestZipEntry {
        var copy = self
        copy.flags |= 1
        return copy
    }

    /// The entry declaring a different uncompressed size than it really has.
    public func declaring(size: UInt32) -> TestZipEntry {
        var copy = self
        copy.uncompressedSize = size
        return copy
    }
}

/// The archive of `entries`, in order, with a central directory that says what their headers say.
public func makeZip(_ entries: [TestZipEntry]) -> [UInt8] {
    var out: [UInt8] = []
    var central: [UInt8] = []
    for entry in entries {
        let offset = UInt32(out.count)
        out += le32(0x0403_4B50) + le16(20) + le16(entry.flags) + le16(entry.method) + le16(0) + le16(0x21)
        out += le32(entry.crc) + le32(UInt32(entry.payload.count)) + le32(entry.uncompressedSize)
        out += le16(UInt16(entry.name.count)) + le16(0) + entry.name + entry.payload
        central += le32(0x0201_4B50) + le16(20) + le16(20) + le16(entry.flags) + le16(entry.method) + le16(0)
        central += le16(0x21) + le32(entry.crc) + le32(UInt32(entry.payload.count)) + le32(entry.uncompressedSize)
        central += le16(UInt16(entry.name.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset)
        central += entry.name
    }
    let centralOffset = UInt32(out.count)
    out += central
    out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
    out += le32(UInt32(central.count)) + le32(centralOffset) + le16(0)
    return out
}

private func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
private func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }

/// The CRC-32 (IEEE) of `data`, as ZIP headers carry it.
public func crc32(_ data: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in data {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// Raw deflate (RFC 1951), one fixed-Huffman block: a literal 0, then matches of 258 at distance 1.
private func deflateZeros(count: Int) -> [UInt8] {
    var out: [UInt8] = []
    var bitBuffer: UInt32 = 0
    var bitCount = 0
    func bits(_ value: UInt32, _ count: Int) {  // LSB first
        bitBuffer |= value << bitCount
        bitCount += count
        while bitCount >= 8 {
            out.append(UInt8(bitBuffer & 0xFF))
            bitBuffer >>= 8
            bitCount -= 8
        }
    }
    func huffman(_ code: UInt32, _ length: Int) {  // Huffman codes go MSB first
        var reversed: UInt32 = 0
        for index in 0..<length where code & (1 << index) != 0 { reversed |= 1 << (length - 1 - index) }
        bits(reversed, length)
    }
    func literalZero() { huffman(0x30, 8) }
    bits(1, 1)  // BFINAL
    bits(1, 2)  // fixed Huffman
    var remaining = count
    if remaining > 0 {
        literalZero()
        remaining -= 1
    }
    while remaining >= 258 {
        huffman(0xC5, 8)  // length code 285 = 258
        huffman(0, 5)  // distance code 0 = 1
        remaining -= 258
    }
    while remaining > 0 {
        literalZero()
        remaining -= 1
    }
    huffman(0, 7)  // end of block
    if bitCount > 0 { out.append(UInt8(bitBuffer & 0xFF)) }
    return out
}
