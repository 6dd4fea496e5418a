import Contracts
import Foundation
import TestSupport
import Testing

@testable import TagEditing

/// The size an SVG cover gives itself (`SVGSize`), read from its start tag: what decides the size it
/// is drawn at, and whether it is drawn at all. Drawing it is tested with ffmpeg in
/// `AudiobookBundlerRunTests`.
@Suite struct CoverConversionTests {
    static func size(_ text: String) -> SVGSize? { SVGSize(Array(text.utf8)) }

    @Test("the viewBox gives the size, after a declaration, a doctype and comments")
    func viewBox() {
        let svg = """
            <?xml version="1.0" encoding="utf-8"?>
            <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
            <!-- a <comment> with > in it -->
            <svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 1400 2100" width="100%">
            <title>Cover</title></svg>
            """
        #expect(Self.size(svg) == SVGSize(width: 1400, height: 2100))
        #expect(Self.size("<svg viewBox='10,20, 600,800'/>") == SVGSize(width: 600, height: 800))
        #expect(
            Self.size("<svg:svg xmlns:svg='http://www.w3.org/2000/svg' viewBox='0 0 3 4'/>")
                == SVGSize(width: 3, height: 4))
    }

    @Test("width and height in absolute units when there is no viewBox")
    func widthAndHeight() {
        #expect(Self.size("<svg width=\"600\" height=\"900\"></svg>") == SVGSize(width: 600, height: 900))
        #expect(Self.size("<svg width=\"1in\" height=\"2in\"/>") == SVGSize(width: 96, height: 192))
        let a4 = Self.size("<svg height='297mm' width='210mm'/>")
        #expect(a4.map { abs($0.width / $0.height - 210.0 / 297) < 1e-9 } == true)
        // An attribute whose name ends like another's is not taken for it.
        #expect(Self.size("<svg data-width='5' width='6' height='8'/>") == SVGSize(width: 6, height: 8))
    }

    @Test("no size, or not an SVG document: nil")
    func noSize() {
        #expect(Self.size("<svg width='100%' height='100%'/>") == nil, "percentages give no size")
        #expect(Self.size("<svg width='10em' height='20em'/>") == nil)
        #expect(Self.size("<svg viewBox='0 0 0 10'/>") == nil)
        #expect(Self.size("<svg viewBox='0 0 -5 10' width='5' height='10'/>") == SVGSize(width: 5, height: 10))
        #expect(Self.size("<svg/>") == nil)
        #expect(Self.size("<html><svg viewBox='0 0 1 1'/></html>") == nil, "the root must be svg")
        #expect(Self.size("<?xml version='1.0'?>") == nil)
        #expect(Self.size("GIF89a") == nil)
        #expect(Self.size("<!-- never closed <svg viewBox='0 0 1 1'/>") == nil)
    }

    @Test("an SVG is drawn with even sides: an odd width made the JPEG differ from run to run")
    func evenSides() {
        #expect(CoverConversion.drawingSize(SVGSize(width: 1400, height: 2100))! == (1_066, 1_600))
        #expect(CoverConversion.drawingSize(SVGSize(width: 2100, height: 1400))! == (1_600, 1_066))
        #expect(CoverConversion.drawingSize(SVGSize(width: 1, height: 1))! == (1_600, 1_600))
        #expect(CoverConversion.drawingSize(SVGSize(width: 1, height: 3.99))! == (402, 1_600))
        #expect(CoverConversion.drawingSize(SVGSize(width: 5000, height: 10)) == nil, "not a cover's shape")
    }

    /// A stand-in for ffmpeg that writes a JPEG signature and then bytes that differ on every run,
    /// as a converter that is not deterministic (or a new version of it) would.
    static func changingFFmpeg(in folder: TemporaryFolder) throws -> String {
        let path = folder.path + "/ffmpeg"
        try Data("#!/bin/sh\ncat >/dev/null\nprintf '\\377\\330\\377\\340'\nhead -c 32 /dev/urandom\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        return path
    }

    @Test("a converted cover is known by its source and recipe, never by the bytes the converter made")
    func convertedCoverIsKnownByItsSource() throws {
        let folder = try TemporaryFolder()
        let ffmpeg = try Self.changingFFmpeg(in: folder)
        let svg = Array("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 2 3'/>".utf8)
        let first = try #require(CoverConversion.cover(from: svg, ffmpegPath: ffmpeg))
        let second = try #require(CoverConversion.cover(from: svg, ffmpegPath: ffmpeg))
        #expect(first.data != second.data, "the stand-in makes other bytes every time")
        #expect(first.sourceSHA256 == second.sourceSHA256)
        #expect(first.sourceSHA256 == SHA256.hex(Array((CoverConversion.svgRecipe + "\n").utf8) + svg))
        #expect(first.sourceSHA256 != SHA256.hex(first.data))
        let other = Array("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 2 4'/>".utf8)
        #expect(CoverConversion.cover(from: other, ffmpegPath: ffmpeg)?.sourceSHA256 != first.sourceSHA256)
        // A picture the book holds as it is is its own source, as before covers were converted.
        let png = try #require(AudiobookCover(data: TestImages.png))
        #expect(png.sourceSHA256 == SHA256.hex(TestImages.png))
    }
}
