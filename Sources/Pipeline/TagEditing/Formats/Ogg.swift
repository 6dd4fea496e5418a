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
    /// capture pattern, the version and, when `checkCRC`, the CRC. - Throws: `TagEditingError.malformed`.
    init(header: [UInt8], body: [UInt8], checkCRC: Bool = true) throws {
        guard header.count >= Self.fixedHeaderBytes, header.starts(with: Array("OggS".utf8)), header[4] == 0 else {
            throw TagEditingError.malformed(reason: "has no Ogg page where one should start")
        }
        let segments = Int(header[26])
        guard header.count == Self.fixedHeaderBytes + segments else {
            throw TagEditingError.malformed(reason: "has a truncated Ogg page")
        }
        headerType = header[5]
        granule = Self.littleEndianValue(header[6..<14])
        serial = UInt32(Self.littleEndianValue(header[14..<18]))
        sequence = UInt32(Self.littleEndianValue(header[18..<22]))
        lacing = Array(header[27...])
        self.body = body
        guard body.count == lacing.reduce(0, { $0 + Int($1) }) else {
            throw TagEditingError.malformed(reason: "has an Ogg page whose body does not match its lacing values")
        }
        if checkCRC {
            var zeroed = header
            zeroed.replaceSubrange(22..<26, with: [0, 0, 0, 0])
            let expected = UInt32(Self.littleEndianValue(header[22..<26]))
            guard OggCRC.checksum(zeroed + body) == expected else {
                throw TagEditingError.malformed(reason: "has an Ogg page with a wrong CRC (page \(sequence))")
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
/// Vorbis I specification 5), and the same comments in a FLAC VORBIS_COMMENT block (no magic, no
/// framing bit): a vendor string and `KEY=value` comments, then the packet's own tail (Vorbis: the
/// framing bit; Opus: padding or binary data).
enum VorbisCommentPacket {
    /// The key of the cover comment (the Xiph convention read by players of Vorbis and Opus).
    static let pictureKey = "METADATA_BLOCK_PICTURE"

    /// The key of the track number comment, as players read it ("3/12").
    static let trackKey = "TRACKNUMBER"

    /// `packet` with `picture` (`KEY=value`, when given) as its only comment whose key is
    /// `pictureKey`, after the others, and each of `values` (key, value) replacing the first comment
    /// of its key where it stands (the key keeps its spelling; further ones of that key are removed)
    /// or, when there is none, added before the picture. An Opus packet's padding is dropped: ffmpeg
    /// reported every byte of libsndfile's ("764 bytes of comment header remain") on every file.
    /// - Throws: `TagEditingError.malformed` when the packet is not a comment header.
    static func edited(_ packet: [UInt8], picture: String?, values: [(key: String, value: String)] = []) throws
        -> [UInt8]
    {
        let (prefix, comments, tail) = try parse(packet)
        return prefix + encode(edit(comments, picture: picture, values: values)) + keptTail(tail, of: packet)
    }

    /// A FLAC VORBIS_COMMENT block body with `values` set as `edited` sets them (no picture: FLAC
    /// has a PICTURE block for it). - Throws: `TagEditingError.malformed` when the block cannot be read.
    static func editedBlock(_ body: [UInt8], values: [(key: String, value: String)]) throws -> [UInt8] {
        let (prefix, comments, tail) = try parse(body, magicLength: 0)
        return prefix + encode(edit(comments, picture: nil, values: values)) + tail
    }

    /// The comments with `values` set in place and `picture` replacing any picture.
    private static func edit(_ comments: [[UInt8]], picture: String?, values: [(key: String, value: String)])
        -> [[UInt8]]
    {
        var out = comments
        if picture != nil { out.removeAll(where: isPicture) }
        for (key, value) in values {
            let matches = out.indices.filter { self.key(of: out[$0]) == key.uppercased() }
            if let first = matches.first {
                let spelling = out[first].prefix { $0 != UInt8(ascii: "=") }
                out[first] = Array(spelling) + Array(("=" + value).utf8)
                for index in matches.dropFirst().reversed() { out.remove(at: index) }
            } else {
                let at = out.firstIndex(where: isPicture) ?? out.endIndex
                out.insert(Array((key + "=" + value).utf8), at: at)
            }
        }
        if let picture { out.append(Array(picture.utf8)) }
        return out
    }

    /// The comment count and the comments, each after its length.
    private static func encode(_ comments: [[UInt8]]) -> [UInt8] {
        var out = OggPage.littleEndian(UInt64(comments.count), bytes: 4)
        for comment in comments { out += OggPage.littleEndian(UInt64(comment.count), bytes: 4) + comment }
        return out
    }

    /// What follows the comments, kept: Vorbis's framing bit, and Opus data an editor must preserve
    /// (its first byte's lowest bit set); Opus padding (that bit clear) is dropped (RFC 7845, 5.2).
    private static func keptTail(_ tail: [UInt8], of packet: [UInt8]) -> [UInt8] {
        guard packet.starts(with: Array("OpusTags".utf8)), let first = tail.first, first & 1 == 0 else { return tail }
        return []
    }

    /// The packet's magic and vendor string, its comments, and what follows them.
    static func parse(_ packet: [UInt8]) throws -> (prefix: [UInt8], comments: [[UInt8]], tail: [UInt8]) {
        if packet.starts(with: Array("OpusTags".utf8)) { return try parse(packet, magicLength: 8) }
        if packet.starts(with: [3] + Array("vorbis".utf8)) { return try parse(packet, magicLength: 7) }
        throw TagEditingError.malformed(reason: "has no comment header where one should be")
    }

    /// As `parse(_:)`, after `magicLength` bytes of magic.
    private static func parse(_ packet: [UInt8], magicLength: Int) throws
        -> (prefix: [UInt8], comments: [[UInt8]], tail: [UInt8])
    {
        var at = magicLength
        func length() throws -> Int {
            guard at + 4 <= packet.count else {
                throw TagEditingError.malformed(reason: "has a truncated comment header")
            }
            defer { at += 4 }
            return Int(OggPage.littleEndianValue(packet[at..<at + 4]))
        }
        let vendor = try length()
        guard vendor <= packet.count - at else {
            throw TagEditingError.malformed(reason: "has a truncated comment header")
        }
        at += vendor
        let prefix = Array(packet[..<at])
        let count = try length()
        var comments: [[UInt8]] = []
        for _ in 0..<min(count, packet.count) {
            let size = try length()
            guard size <= packet.count - at else {
                throw TagEditingError.malformed(reason: "has a truncated comment header")
            }
            comments.append(Array(packet[at..<at + size]))
            at += size
        }
        guard comments.count == count else { throw TagEditingError.malformed(reason: "has a truncated comment header") }
        return (prefix, comments, Array(packet[at...]))
    }

    /// The comment's key, upper case (keys are case-insensitive ASCII); nil without `=`.
    static func key(of comment: [UInt8]) -> String? {
        guard let equals = comment.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        return String(decoding: comment[..<equals], as: UTF8.self).uppercased()
    }

    /// Whether `comment` is a cover (`METADATA_BLOCK_PICTURE=...`, the key in any case).
    static func isPicture(_ comment: [UInt8]) -> Bool { key(of: comment) == pictureKey }
}
