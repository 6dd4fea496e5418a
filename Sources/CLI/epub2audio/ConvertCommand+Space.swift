import Foundation
import LiveConversion

extension ConvertCommand {
    /// What converting `book` with these flags writes (`OutputEstimate`): its sections read, spoken as
    /// the conversion would speak them at `--rate`, in `--format` and `--quality`, with the `--bundle`
    /// (the read-along book too) and the embedded cover.
    func estimate(for book: OpenedBook) -> OutputEstimate {
        LiveConversion.estimate(of: book, options: conversionOptions(for: book, selection: nil))
    }

    /// The free-space check before the first section of the first book: the estimate of every book
    /// to convert, less the audio their folders hold already (a resumed run keeps it), against the
    /// free space of the output folder's disk (`freeBytes`, `SpaceCheck.freeBytes` but in tests).
    /// A line when it is tight; exit 5 when it cannot fit, unless `--force`. Books that cannot be
    /// read are left to the conversion, which says why. Of a single book, the book read is handed
    /// back (`loaded`), so that it is not read twice.
    func checkFreeSpace(
        paths: [String], options: SectionOptions, selection: ChapterSelection?, batch: Bool,
        freeBytes: (String) -> Int64? = SpaceCheck.freeBytes
    ) -> (refusal: Exit?, loaded: OpenedBook?) {
        var loaded: OpenedBook?
        let folders = batch ? BatchFolders(root: files.output ?? ".") : nil
        var needed: Int64 = 0
        var root = files.output ?? "."
        for path in paths {
            guard let book = try? BookLoader.load(path: path, options: options, chapters: selection) else { continue }
            if paths.count == 1 { loaded = book }
            guard book.nothingToRead == nil else { continue }
            let directory = outputDirectory(for: book, batch: folders)
            if !batch { root = directory }
            let written = SpaceCheck.bytesWritten(in: directory, format: files.audioFormat, bundle: files.audiobook)
            needed += max(0, estimate(for: book).bytes - written)
        }
        guard let free = freeBytes(root) else { return (nil, loaded) }
        let decision = SpaceCheck.decide(needed: needed, free: free)
        return (reportSpace(decision, needed: needed, free: free, root: root), loaded)
    }

    /// Says what `decision` means for a conversion needing `needed` bytes where `free` are free; the
    /// exit status when the conversion must not start.
    func reportSpace(_ decision: SpaceCheck, needed: Int64, free: Int64, root: String) -> Exit? {
        let style = TerminalStyle.detect(fileDescriptor: 2)
        let figures =
            "the audio needs about \(ByteCount.text(needed)) and \(ByteCount.text(free)) are free on the disk of \(root)"
        switch decision {
        case .fits:
            return nil
        case .tight:
            if !running.quiet { StandardError.write(style.yellow("warning:") + " " + figures + " (an estimate)\n") }
            return nil
        case .tooSmall where running.force:
            if !running.quiet {
                StandardError.write(style.yellow("warning:") + " " + figures + "; going on (--force)\n")
            }
            return nil
        case .tooSmall:
            reportError(
                figures + ": it cannot fit; free some space or choose a smaller --format (mp3, opus), "
                    + "or --force to go on anyway",
                style: style)
            return .outputError
        }
    }
}

/// Byte counts for people, in decimal units as `df -H` shows them: "940 kB", "19 MB", "1.2 GB".
enum ByteCount {
    static func text(_ bytes: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(max(0, bytes))
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if unit == 0 { return "\(Int(value)) B" }
        return value < 10 ? String(format: "%.1f", value) + " " + units[unit] : "\(Int(value.rounded())) \(units[unit])"
    }
}
