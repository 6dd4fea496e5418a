import Foundation
import LiveConversion

/// The folders the books of one command go to, one per book under the output folder.
///
/// Named after each book's title, two books of one title (two editions of one poem) went to
/// the same folder: the second was refused as "made from a different book file", and the advice
/// to use `--force` then replaced the first one's audio. Each book now gets a folder of its own:
/// "Title", else "Title (2)", "Title (3)"... The choice is stable from one run to the next (a
/// batch run again resumes each book in its folder): a folder is taken when no other book of this
/// command has it and it holds no manifest of another book file.
final class BatchFolders {
    let root: String
    private var claimed: Set<String> = []

    /// Most folders tried for one title before the last is used anyway (its conversion then says why).
    static let mostCandidates = 99

    init(root: String) {
        self.root = root
    }

    /// The folder for the book at `bookPath`, titled `folder` (a file name already), under `root`.
    func claim(_ folder: String, forBookAt bookPath: String) -> String {
        var sha256: String?
        var path = ""
        for n in 1...Self.mostCandidates {
            path = URL(fileURLWithPath: root).appendingPathComponent(n == 1 ? folder : "\(folder) (\(n))").path
            guard !claimed.contains(path) else { continue }
            if let recorded = Self.recordedBook(in: path) {
                if sha256 == nil { sha256 = try? SHA256.hex(fileAtPath: bookPath) }
                guard recorded == sha256 else { continue }
            }
            break
        }
        claimed.insert(path)
        return path
    }

    /// The SHA-256 of the book file whose conversion the folder holds, when it holds one.
    private static func recordedBook(in path: String) -> String? {
        guard let manifest = try? Manifest.load(fromDirectory: path), !manifest.book.sha256.isEmpty else { return nil }
        return manifest.book.sha256
    }
}
