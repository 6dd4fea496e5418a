import Foundation

/// `OUTDIR/manifest.journal`: the section records changed since `manifest.json` was last written,
/// appended one JSON line each, so that recording a change costs the same in a book of 10 or
/// 10,000 sections (rewriting the whole manifest per change made a book O(n²)).
///
/// The first line is a header naming the journal's identifier, which the manifest repeats in its
/// `journal` key: a journal left beside a manifest written later (the process died between writing
/// the one and replacing the other) names another identifier and is ignored. Every other line is a
/// whole `SectionRecord` (not a difference), so replaying is "last record of a section wins" and
/// replaying twice changes nothing. See docs/manifest.md.
enum ManifestJournal {
    /// The journal's file name inside the output folder.
    static let fileName = "manifest.journal"
    /// The format version of the journal's lines (the header says it).
    static let version = 1

    private struct Header: Codable {
        var journal: String
        var version: Int
    }

    /// A new random identifier.
    static func newIdentifier() -> String {
        String(UInt64.random(in: 0...UInt64.max), radix: 16)
    }

    /// The header line (with its newline) of journal `id`.
    static func header(id: String) -> Data {
        var data = CanonicalJSON.encode(Header(journal: id, version: version))
        data.append(0x0A)
        return data
    }

    /// One record as a line (canonical JSON, which escapes newlines in strings, plus a newline).
    static func line(_ record: SectionRecord) -> Data {
        var data = CanonicalJSON.encode(record)
        data.append(0x0A)
        return data
    }

    /// The records of `data` in order, when its header names `id`; none otherwise.
    ///
    /// Reading stops at a last line without its newline (torn by a kill while it was appended) and
    /// at the first line that is not a record (a power cut can leave zeros at the end of a file):
    /// what follows was never recorded.
    static func records(in data: Data, id: String) -> [SectionRecord] {
        let decoder = JSONDecoder()
        var records: [SectionRecord] = []
        var start = data.startIndex
        var first = true
        while start < data.endIndex, let end = data[start...].firstIndex(of: 0x0A) {
            let line = data[start..<end]
            start = data.index(after: end)
            if first {
                first = false
                guard let header = try? decoder.decode(Header.self, from: line), header.journal == id,
                    header.version <= version
                else { return [] }
                continue
            }
            guard line.first == UInt8(ascii: "{"), let record = try? decoder.decode(SectionRecord.self, from: line)
            else { break }
            records.append(record)
        }
        return records
    }
}
