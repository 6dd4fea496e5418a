import Contracts
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Book covers that players do not show as they are, made into pictures they do, by ffmpeg: a GIF,
/// WebP, BMP or TIFF becomes a PNG; an SVG (every Standard Ebooks book's cover) is drawn into a JPEG.
///
/// The image goes to ffmpeg as its standard input, from a file that lives only in memory
/// (`memfd_create`): ffmpeg can then seek in it and learn its size, which its SVG reader needs, and
/// no pipe can fill up while ffmpeg is not reading. The picture comes back on its standard output.
/// No file is written anywhere: this runs before the output folder is chosen, and TMPDIR may be
/// unwritable.
enum CoverConversion {
    /// The longer side of a cover drawn from SVG, in pixels: sharp on a phone or a tablet, and small
    /// enough as a JPEG (a few hundred kilobytes) to be embedded in every section file.
    static let svgLongSide = 1_600

    /// Covers drawn from SVG are between 1:4 and 4:1; another shape is not a cover, and a drawing
    /// of a few pixels by millions would take memory for nothing.
    static let svgAspectRange = 0.25...4.0

    /// CPU seconds ffmpeg may spend on one cover (its `-timelimit`): a drawing made to be slow to
    /// render stops there, and the book simply has no cover.
    static let cpuSecondsLimit = 10

    /// How a raster cover is converted, named in `AudiobookCover.sourceSHA256`: a change here that
    /// changes the picture (not ffmpeg's version) is a new recipe, and redoes the files once.
    static let rasterRecipe = "epub2audio cover: raster to PNG, first frame, v1"

    /// How an SVG cover is drawn, as `rasterRecipe`.
    static let svgRecipe = "epub2audio cover: SVG to JPEG, \(svgLongSide) px, even sides, over white, q3, v2"

    /// The cover `data` made into a JPEG or PNG, or nil (not an image ffmpeg reads, an SVG without
    /// a size or of another shape, no in-memory file on this system). Its `sourceSHA256` names the
    /// recipe and `data`, not the picture ffmpeg made.
    static func cover(from data: [UInt8], ffmpegPath: String) -> AudiobookCover? {
        let made: [UInt8]?
        let recipe: String
        if AudiobookCover.isConvertibleRaster(data) {
            (made, recipe) = (png(fromRaster: data, ffmpegPath: ffmpegPath), rasterRecipe)
        } else if let size = SVGSize(data) {
            (made, recipe) = (jpeg(fromSVG: data, size: size, ffmpegPath: ffmpegPath), svgRecipe)
        } else {
            return nil
        }
        guard let made else { return nil }
        var source = SHA256()
        source.update(recipe + "\n")
        source.update(data)
        return AudiobookCover(data: made, sourceSHA256: source.finalizeHex())
    }

    /// The first frame of a raster image as PNG (lossless: the picture stays as the book has it).
    static func png(fromRaster data: [UInt8], ffmpegPath: String) -> [UInt8]? {
        run(ffmpegPath, input: data, arguments: ["-i", "/dev/stdin", "-frames:v", "1", "-c:v", "png"])
    }

    /// The width and height an SVG of `size` is drawn at: `svgLongSide` on its longer side, both
    /// even. An odd width made the picture differ from run to run: the 4:2:0 JPEG's last column of
    /// colour averaged in a pixel beyond the row, memory ffmpeg leaves uninitialised (1,067 × 1,600,
    /// a Standard Ebooks cover's shape, changed its bytes one run in two). Nil for another shape.
    static func drawingSize(_ size: SVGSize) -> (width: Int, height: Int)? {
        let aspect = size.width / size.height
        guard svgAspectRange.contains(aspect) else { return nil }
        let long = Double(svgLongSide)
        let (width, height) = aspect <= 1 ? (long * aspect, long) : (long, long / aspect)
        func even(_ side: Double) -> Int { max(2, 2 * Int((side / 2).rounded())) }
        return (even(width), even(height))
    }

    /// An SVG drawn by ffmpeg's librsvg decoder at `drawingSize`, over white (a JPEG has no
    /// transparency), as a JPEG.
    ///
    /// The decoder is given the width and height to draw, so the memory it takes does not depend on
    /// what the file claims. It gets the file's bytes, not its place: the drawing cannot load other
    /// files, only images embedded in it (`data:` URLs), as Standard Ebooks covers have.
    static func jpeg(fromSVG data: [UInt8], size: SVGSize, ffmpegPath: String) -> [UInt8]? {
        guard let (width, height) = drawingSize(size) else { return nil }
        return run(
            ffmpegPath, input: data,
            arguments: [
                "-f", "svg_pipe", "-width", "\(width)", "-height", "\(height)", "-keep_ar", "0", "-i", "/dev/stdin",
                "-frames:v", "1",
                "-vf", "split[a][b];[a]drawbox=c=white:t=fill[bg];[bg][b]overlay=format=auto,format=yuvj420p",
                "-c:v", "mjpeg", "-q:v", "3",
            ])
    }

    /// Runs ffmpeg on `input` with `arguments` (the input's and the encoder's) and returns the one
    /// picture it writes, if it is a JPEG or PNG; nil when ffmpeg fails or is stopped by its limit.
    private static func run(_ ffmpegPath: String, input: [UInt8], arguments: [String]) -> [UInt8]? {
        guard let image = MemoryFile(input) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpegPath)
        process.arguments =
            ["-hide_banner", "-loglevel", "error", "-nostdin", "-timelimit", "\(cpuSecondsLimit)"]
            // One thread for the filters and the encoder: one picture gains nothing from more, and
            // the result cannot depend on how the work is split between threads.
            + ["-filter_threads", "1"] + arguments + [
                // No version string in the picture: the same image gives the same bytes after an upgrade.
                "-threads", "1", "-flags:v", "+bitexact", "-map_metadata", "-1", "-f", "image2pipe", "pipe:1",
            ]
        let output = Pipe()
        process.standardInput = image.handle
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let picture = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { return nil }
        let bytes = Array(picture)
        return AudiobookCover(data: bytes) == nil ? nil : bytes
    }
}

/// A file that exists only in memory (`memfd_create(2)`), holding given bytes, read from the start.
private struct MemoryFile {
    /// Closes the file when dropped.
    let handle: FileHandle

    /// Nil when the system has no in-memory files or the bytes cannot be written.
    init?(_ bytes: [UInt8]) {
        typealias MemfdCreate = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32
        let closeOnExec: UInt32 = 1  // MFD_CLOEXEC: only the child it is handed to, as its input, gets it.
        guard let create: MemfdCreate = CLibrary.function(named: "memfd_create") else { return nil }
        let descriptor = create("epub2audio-cover", closeOnExec)
        guard descriptor >= 0 else { return nil }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: Data(bytes))
            try handle.seek(toOffset: 0)
        } catch {
            return nil
        }
    }
}

/// The width and height an SVG document gives itself (its root element's `viewBox`, else its `width`
/// and `height` in absolute units), read from the start tag without parsing the document.
struct SVGSize: Hashable {
    var width: Double
    var height: Double

    /// Nil when `data` does not start like an SVG document (an XML declaration, a doctype, comments,
    /// then an `svg` element within its first 64 KiB) or gives no positive size.
    init?(_ data: [UInt8]) {
        guard let tag = Self.rootTag(data) else { return nil }
        if let box = Self.attribute("viewBox", in: tag) {
            let numbers = box.split(whereSeparator: { $0 == " " || $0 == "," || $0.isWhitespace }).compactMap {
                Double($0)
            }
            if numbers.count == 4, numbers[2] > 0, numbers[3] > 0 {
                self.init(width: numbers[2], height: numbers[3])
                return
            }
        }
        guard let width = Self.attribute("width", in: tag).flatMap(Self.length),
            let height = Self.attribute("height", in: tag).flatMap(Self.length), width > 0, height > 0
        else { return nil }
        self.init(width: width, height: height)
    }

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The start tag of the document's root element, when it is `svg` (or `prefix:svg`).
    private static func rootTag(_ data: [UInt8]) -> Substring? {
        let head = String(decoding: data.prefix(64 << 10), as: UTF8.self)
        var rest = head[...]
        while let open = rest.firstIndex(of: "<") {
            let after = rest[rest.index(after: open)...]
            if after.hasPrefix("?") || after.hasPrefix("!") {
                // The XML declaration, a doctype or a comment: skip to its end.
                let end = after.hasPrefix("!--") ? after.range(of: "-->")?.upperBound : after.firstIndex(of: ">")
                guard let end else { return nil }
                rest = after[end...]
                continue
            }
            guard let close = after.firstIndex(of: ">") else { return nil }
            let tag = after[..<close]
            let name = tag.prefix { !$0.isWhitespace && $0 != "/" }
            guard name == "svg" || name.hasSuffix(":svg") else { return nil }
            return tag
        }
        return nil
    }

    /// The value of attribute `name` in a start tag (quoted with `"` or `'`).
    private static func attribute(_ name: String, in tag: Substring) -> String? {
        var rest = tag[...]
        while let found = rest.range(of: name) {
            let before = found.lowerBound == tag.startIndex ? " " : tag[tag.index(before: found.lowerBound)]
            var after = rest[found.upperBound...].drop { $0.isWhitespace }
            rest = rest[found.upperBound...]
            guard before.isWhitespace, after.first == "=" else { continue }
            after = after.dropFirst().drop { $0.isWhitespace }
            guard let quote = after.first, quote == "\"" || quote == "'" else { return nil }
            let value = after.dropFirst()
            guard let end = value.firstIndex(of: quote) else { return nil }
            return String(value[..<end])
        }
        return nil
    }

    /// A length in CSS pixels: a number, with `px`, `pt`, `pc`, `mm`, `cm` or `in`; nil for
    /// percentages and relative units, which give no size on their own.
    private static func length(_ text: String) -> Double? {
        let units: [(String, Double)] = [
            ("px", 1), ("pt", 4.0 / 3), ("pc", 16), ("mm", 96 / 25.4), ("cm", 96 / 2.54), ("in", 96),
        ]
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for (unit, pixels) in units where trimmed.hasSuffix(unit) {
            return Double(trimmed.dropLast(unit.count)).map { $0 * pixels }
        }
        return Double(trimmed)
    }
}
