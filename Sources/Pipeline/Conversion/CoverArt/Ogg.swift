/// Ogg pages (RFC 3533): what it takes to put a larger comment header in an Ogg Opus or Ogg Vorbis
/// file made by libsndfile, one logical stream. Pure over bytes.
struct OggPage: Hashable {
    /// Header type flags: the page continues a packet from the previous page.
    static let continued: UInt8 = 0x01
    /// Header type flags: first page of the stream.
    static let beginning: UInt8 = 0x02
    /// Header type flags: last page of the stream.
    static let end: UInt8 = 0x04
    /// Granule position of a page on which no packet ends (RFC 3533, 6).
    static let noGranule = UInt64.max
    /// The fixed part of a page header, before the lacing values.
    static let fixedHeaderBytes = 27

    var headerType: UInt8
    var granule: UInt64
    var serial: UInt32
    var sequence: UInt32
    /// Lacing values: one per segment, 255 meaning the packet goes on in the next segment.
    var lacing: [UInt8]
    var body: [UInt8]

    /// The page's bytes with its CRC computed.
    var bytes: [UInt8] {
        var out = Array("OggS".utf8) + [0, headerType]
        out += Self.littleEndian(granule, bytes: 8) + Self.littleEndian(UInt64(serial), bytes: 4)
        out += Self.littleEndian(UInt64(sequence), bytes: 4) + [0, 0, 0, 0]
        out.append(UInt8(lacing.count))
        out += lacing + body
        let crc = OggCRC.checksum(out)
        out.replaceSubrange(22..<26, with: Self.littleEndian(UInt64(crc), bytes: 4))
        return out
    }

    /// Reads a page from `header` (the 27 fixed bytes and the lacing values) and `body`; checks the
    /// capture pattern, the version and, when `checkCRC`, the CRC. - Throws: `FileFormatError`.
    init(header: [UInt8], body: [UInt8], checkCRC: Bool = true) throws {
        guard header.count >= Self.fixedHeaderBytes, header.starts(with: Array("OggS".utf8)), header[4] == 0 else {
            throw FileFormatError(reason: "has no Ogg page where one should start")
        }
        let segments = Int(header[26])
        guard header.count == Self.fixedHeaderBytes + segments else {
            throw FileFormatError(reason: "has a truncated Ogg page")
        }
        headerType = header[5]
        granule = Self.littleEndianValue(header[6..<14])
        serial = UInt32(Self.littleEndianValue(header[14..<18]))
        sequence = UInt32(Self.littleEndianValue(header[18..<22]))
        lacing = Array(header[27...])
        self.body = body
        guard body.count == lacing.reduce(0, { $0 + Int($1) }) else {
            throw FileFormatError(reason: "has an Ogg page whose body does not match its lacing values")
        }
        if checkCRC {
            var zeroed = header
            zeroed.replaceSubrange(22..<26, with: [0, 0, 0, 0])
            let expected = UInt32(Self.littleEndianValue(header[22..<26]))
            guard OggCRC.checksum(zeroed + body) == expected else {
                throw FileFormatError(reason: "has an Ogg page with a wrong CRC (page \(sequence))")
            }
        }
    }

    init(headerType: UInt8, granule: UInt64, serial: UInt32, sequence: UInt32, lacing: [UInt8], body: [UInt8]) {
        self.headerType = headerType
        self.granule = granule
        self.serial = serial
        self.sequence = sequence
        self.lacing = lacing
        self.body = body
    }

    /// The body's pieces, one per packet or part of a packet, each with whether the packet ends on
    /// this page.
    var pieces: [(bytes: ArraySlice<UInt8>, ends: Bool)] {
        var out: [(ArraySlice<UInt8>, Bool)] = []
        var start = 0
        var at = 0
        for (index, value) in lacing.enumerated() {
            at += Int(value)
            if value < 255 || index == lacing.count - 1 {
                out.append((body[start..<at], value < 255))
                start = at
            }
        }
        return out
    }

    /// `packets` laid out on pages of at most 255 segments, numbered from `firstSequence`: a page on
    /// which a packet ends has granule `granule`, the others `noGranule` (header packets: granule 0).
    static func paginate(_ packets: [[UInt8]], serial: UInt32, firstSequence: UInt32, granule: UInt64 = 0)
        -> [OggPage]
    {
        var pages: [OggPage] = []
        var lacing: [UInt8] = []
        var body: [UInt8] = []
        var packetEnded = false
        var startsContinued = false
        func flush(continuing: Bool) {
            pages.append(
                OggPage(
                    headerType: startsContinued ? continued : 0, granule: packetEnded ? granule : noGranule,
                    serial: serial, sequence: firstSequence + UInt32(pages.count), lacing: lacing, body: body))
            lacing = []
            body = []
            packetEnded = false
            startsContinued = continuing
        }
        for packet in packets {
            var at = 0
            while true {
                if lacing.count == 255 { flush(continuing: at > 0) }
                let count = min(255, packet.count - at)
                lacing.append(UInt8(count))
                body += packet[at..<at + count]
                at += count
                if count < 255 { break }
            }
            packetEnded = true
        }
        if !lacing.isEmpty { flush(continuing: false) }
        return pages
    }

    static func littleEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    static func littleEndianValue(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}

/// The Ogg page checksum: CRC-32, polynomial 0x04C11DB7, most significant bit first, initial value 0,
/// no final XOR, computed with the page's CRC field set to zero (RFC 3533, 6).
enum OggCRC {
    static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index) << 24
        for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        return crc
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0
        for byte in bytes { crc = (crc << 8) ^ table[Int((crc >> 24) ^ UInt32(byte))] }
        return crc
    }
}

/// The comment header packet of Ogg Opus (`OpusTags`, RFC 7845, 5.2) and Ogg Vorbis (packet type 3,
/// Vorbis I specification 5): a vendor string and `KEY=value` comments, then the packet's own tail
/// (Vorbis: the framing bit; Opus: optional padding or binary data), kept as it is.
enum VorbisCommentPacket {
    /// The key of the cover comment (the Xiph convention read by players of Vorbis and Opus).
    static let pictureKey = "METADATA_BLOCK_PICTURE"

    /// `packet` with `comment` (`KEY=value`) as its only comment whose key is `pictureKey`, after
    /// the others. - Throws: `FileFormatError` when the packet is not a comment header.
    static func replacingPicture(in packet: [UInt8], with comment: String) throws -> [UInt8] {
        let (prefix, comments, tail) = try parse(packet)
        let kept = comments.filter { !isPicture($0) } + [Array(comment.utf8)]
        var out = prefix + OggPage.littleEndian(UInt64(kept.count), bytes: 4)
        for comment in kept { out += OggPage.littleEndian(UInt64(comment.count), bytes: 4) + comment }
        return out + tail
    }

    /// The packet's magic and vendor string, its comments, and what follows them.
    static func parse(_ packet: [UInt8]) throws -> (prefix: [UInt8], comments: [[UInt8]], tail: [UInt8]) {
        let magicLength: Int
        if packet.starts(with: Array("OpusTags".utf8)) {
            magicLength = 8
        } else if packet.starts(with: [3] + Array("vorbis".utf8)) {
            magicLength = 7
        } else {
            throw FileFormatError(reason: "has no comment header where one should be")
        }
        var at = magicLength
        func length() throws -> Int {
            guard at + 4 <= packet.count else { throw FileFormatError(reason: "has a truncated comment header") }
            defer { at += 4 }
            return Int(OggPage.littleEndianValue(packet[at..<at + 4]))
        }
        let vendor = try length()
        guard vendor <= packet.count - at else { throw FileFormatError(reason: "has a truncated comment header") }
        at += vendor
        let prefix = Array(packet[..<at])
        let count = try length()
        var comments: [[UInt8]] = []
        for _ in 0..<min(count, packet.count) {
            let size = try length()
            guard size <= packet.count - at else { throw FileFormatError(reason: "has a truncated comment header") }
            comments.append(Array(packet[at..<at + size]))
            at += size
        }
        guard comments.count == count else { throw FileFormatError(reason: "has a truncated comment header") }
        return (prefix, comments, Array(packet[at...]))
    }

    /// Whether `comment` is a cover (`METADATA_BLOCK_PICTURE=...`, the key in any case).
    static func isPicture(_ comment: [UInt8]) -> Bool {
        guard let equals = comment.firstIndex(of: UInt8(ascii: "=")) else { return false }
        return String(decoding: comment[..<equals], as: UTF8.self).uppercased() == pictureKey
    }
}
