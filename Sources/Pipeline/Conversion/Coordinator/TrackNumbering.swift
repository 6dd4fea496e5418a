import Contracts

/// The track numbers of a folder's section files: `i/N`, a file's place among the sections whose
/// files make the folder's audiobook, in book order: the files `playlist.m3u` lists, numbered as a
/// player lists them (1 to N), never the `--list` numbers (a book's chapters 5 to 14 of 18 are
/// tracks 1/10 to 10/10).
///
/// Which sections those are, when the caller does not name them (the service does: it makes each
/// section in a run of its own): the ones done in the folder already, kept from earlier runs, and
/// the ones this run selects (made, resumed, or failing: a section that fails keeps its place, and
/// its next run fills the gap). A pure function of the manifest and the selection, so a resumed run
/// numbers its files as the interrupted one did; a run that adds sections to a folder numbers the
/// files already there anew (`TrackNumberTag`).
struct TrackNumbering: Hashable {
    /// Section number → `i/N`.
    private(set) var tracks: [Int: String] = [:]

    /// The numbering of `sections` (any order, duplicates ignored).
    init(sections: [Int]) {
        let album = Set(sections).sorted()
        for (index, number) in album.enumerated() { tracks[number] = "\(index + 1)/\(album.count)" }
    }

    /// The numbering of a run: the sections `explicit` names when given, else the sections `records`
    /// says are done and the `selected` ones.
    init(records: [SectionRecord], selected: Set<Int>, explicit: [Int]?) {
        if let explicit {
            self.init(sections: explicit)
        } else {
            self.init(sections: records.filter { $0.status == .done }.map(\.number) + selected)
        }
    }

    /// The track number of section `number`; nil for a section outside the folder's audiobook.
    func track(_ number: Int) -> String? { tracks[number] }
}
