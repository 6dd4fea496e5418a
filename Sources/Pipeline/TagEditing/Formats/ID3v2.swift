import Contracts

/// The ID3v2 tag at the start of an MP3 file, edited to carry the cover as an `APIC` frame, and
/// text Latin-1 cannot hold in UTF-16 frames.
///
/// libsndfile's MP3 writer (LAME) starts the file with an ID3v2.3 tag holding `TSSE`, `TIT2`, `TPE1`,
/// `TALB`, `TRCK`, `TCON`; the picture joins those frames, a text frame replaces LAME's of its id,
/// every other frame is kept as it is. Pure over bytes. Layouts: ID3v2.3 (id3.org, "ID3 tag version 2.3.0", 3 and 4.15) and ID3v2.4
/// ("ID3 tag version 2.4.0 - Main Structure", 3.1 and 4.1: frame sizes become syncsafe).
package enum ID3v2 {
    /// The tag header: "ID3", version, revision, flags, syncsafe size.
    static let headerBytes = 10

    /// A tag's size field has 28 bits (syncsafe).
    static let maxTagBytes = (1 << 28) - 1

    /// The whole tag's length (header included) when `header` starts one, else nil.
    static func tagLength(header: [UInt8]) -> Int? {
        guard header.count >= headerBytes, header.starts(with: Array("ID3".utf8)),
            let size = syncsafe(header[6..<10])
        else { return nil }
        // A v2.4 footer repeats the header after the frames.
        let footer = header[3] == 4 && header[5] & 0x10 != 0 ? headerBytes : 0
        return headerBytes + size + footer
    }

    /// One frame: its identifier and its whole bytes (header included).
    struct Frame: Hashable {
        var id: String
        var bytes: [UInt8]
    }

    /// The frames of `tag` (a whole tag: header, frames, padding), in order; padding is dropped.
    ///
    /// - Throws: `TagEditingError.malformed` for a version other than 2.3 and 2.4, a tag with unsynchronisation,
    ///   an extended header or a footer (libsndfile writes none of these), or a frame past the tag's end.
    static func frames(of tag: [UInt8]) throws -> (version: UInt8, frames: [Frame]) {
        guard let length = tagLength(header: Array(tag.prefix(headerBytes))), length <= tag.count else {
            throw TagEditingError.malformed(reason: "has a truncated ID3v2 tag")
        }
        let version = tag[3]
        guard version == 3 || version == 4 else {
            throw TagEditingError.malformed(reason: "has an ID3v2.\(version) tag (only 2.3 and 2.4 are edited)")
        }
        guard tag[5] & 0xD0 == 0 else {
            throw TagEditingError.malformed(
                reason: "has an ID3v2 tag with unsynchronisation, an extended header or a footer")
        }
        var frames: [Frame] = []
        var at = headerBytes
        while at + headerBytes <= length, tag[at] != 0 {
            let sizeBytes = tag[at + 4..<at + 8]
            let size = version == 4 ? syncsafe(sizeBytes) : sizeBytes.reduce(0) { $0 << 8 | Int($1) }
            guard let size, at + headerBytes + size <= length else {
                throw TagEditingError.malformed(reason: "has an ID3v2 frame that runs past the tag")
            }
            let id = String(decoding: tag[at..<at + 4], as: UTF8.self)
            frames.append(Frame(id: id, bytes: Array(tag[at..<at + headerBytes + size])))
            at += headerBytes + size
        }
        return (version, frames)
    }

    /// `tag` (nil: the file has none) with the cover as its only `APIC` frame (when given) and the
    /// `texts` (frame id, text) in frames of their own in place of the ones of those ids, after
    /// the other frames, without padding; a new tag is version 2.3, which every player reads.
    ///
    /// - Throws: `TagEditingError.malformed` as `frames(of:)` does, or when the tag would exceed `maxTagBytes`.
    static func tag(_ tag: [UInt8]?, withPicture cover: AudiobookCover?, texts: [(id: String, text: String)] = [])
        throws -> [UInt8]
    {
        let (version, frames) = try tag.map(frames(of:)) ?? (3, [])
        let replaced = Set(texts.map(\.id) + (cover == nil ? [] : ["APIC"]))
        var body = frames.filter { !replaced.contains($0.id) }.flatMap(\.bytes)
        for text in texts { body += textFrame(text.id, text.text, version: version) }
        if let cover { body += pictureFrame(cover, version: version) }
        guard body.count <= maxTagBytes else {
            throw TagEditingError.malformed(reason: "would have an ID3v2 tag larger than 256 MB")
        }
        return Array("ID3".utf8) + [version, 0, 0] + syncsafe(body.count) + body
    }

    /// `tag` (nil: the file has none) with the text frame `id` holding `text` in Latin-1 where the
    /// frame stands, its flags kept (after the other frames when there is none), without padding:
    /// LAME's `TRCK` frame as LAME writes it (encoding 0, no terminator) for a new track number.
    ///
    /// - Throws: `TagEditingError.malformed` as `frames(of:)` does.
    static func tag(_ tag: [UInt8]?, settingLatin1 id: String, to text: String) throws -> [UInt8] {
        let (version, frames) = try tag.map(frames(of:)) ?? (3, [])
        let encoded = [0] + text.unicodeScalars.map { $0.value <= 0xFF ? UInt8($0.value) : UInt8(ascii: "?") }
        let size = version == 4 ? syncsafe(encoded.count) : FLACMetadata.bigEndian(UInt64(encoded.count), bytes: 4)
        func frame(flags: ArraySlice<UInt8>) -> [UInt8] { Array(id.utf8) + size + flags + encoded }
        var body: [UInt8] = []
        var replaced = false
        for old in frames {
            if old.id == id {
                if !replaced { body += frame(flags: old.bytes[8..<10]) }
                replaced = true
            } else {
                body += old.bytes
            }
        }
        if !replaced { body += frame(flags: [0, 0]) }
        return Array("ID3".utf8) + [version, 0, 0] + syncsafe(body.count) + body
    }

    /// The text frames (`TIT2` title, `TALB` album, `TPE1` artist) of `tags` that Latin-1 cannot
    /// hold as written: LAME writes Latin-1 only, and a Chinese title came out empty, a Polish
    /// name without its "Ł". The others stay LAME's.
    package static func unicodeTexts(_ tags: AudioTags) -> [(id: String, text: String)] {
        [("TIT2", tags.title), ("TALB", tags.album), ("TPE1", tags.artist)].compactMap { id, text in
            guard let text, text.unicodeScalars.contains(where: { $0.value > 0xFF }) else { return nil }
            return (id, text)
        }
    }

    /// A text frame: UTF-16 with its byte order mark in ID3v2.3 (encoding 1), UTF-8 in 2.4 (encoding 3).
    static func textFrame(_ id: String, _ text: String, version: UInt8) -> [UInt8] {
        let encoded: [UInt8] =
            version == 4
            ? [3] + Array(text.utf8)
            : [1, 0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let size = version == 4 ? syncsafe(encoded.count) : FLACMetadata.bigEndian(UInt64(encoded.count), bytes: 4)
        return Array(id.utf8) + size + [0, 0] + encoded
    }

    /// An `APIC` frame: Latin-1 text, the MIME type, front cover (3), no description, the image.
    static func pictureFrame(_ cover: AudiobookCover, version: UInt8) -> [UInt8] {
        let mime = Array((cover.fileExtension == "png" ? "image/png" : "image/jpeg").utf8)
        let body = [0] + mime + [0, 3, 0] + cover.data
        let size = version == 4 ? syncsafe(body.count) : FLACMetadata.bigEndian(UInt64(body.count), bytes: 4)
        return Array("APIC".utf8) + size + [0, 0] + body
    }

    /// `value` in four bytes of seven bits each (most significant first).
    static func syncsafe(_ value: Int) -> [UInt8] {
        [21, 14, 7, 0].map { UInt8(truncatingIfNeeded: (value >> $0) & 0x7F) }
    }

    /// The value of four syncsafe bytes; nil when one has its top bit set.
    static func syncsafe(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count == 4, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return bytes.reduce(0) { $0 << 7 | Int($1) }
    }
}
