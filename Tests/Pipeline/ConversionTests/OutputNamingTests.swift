import Testing

@testable import Conversion

@Suite struct OutputNamingTests {
    @Test(arguments: [
        ("Chapter 1", "Chapter 1"),
        ("Part I/Chapter 2", "Part I-Chapter 2"),
        ("Back\\slash", "Back-slash"),
        ("../../etc/passwd", "etc-passwd"),
        ("-rf", "rf"),
        ("--- Chapter 4", "Chapter 4"),
        ("Well-known", "Well-known"),
        ("..", "Section 7"),
        (".hidden", "hidden"),
        ("...Leading dots", "Leading dots"),
        ("Wait.. what", "Wait… what"),
        ("Trailing dots...", "Trailing dots"),
        ("Trailing spaces   ", "Trailing spaces"),
        ("Tab\tand\nnewline\u{7}bell", "Tab and newline bell"),
        ("Bidi\u{202E}override", "Bidi override"),
        ("Chapter 3: The Storm", "Chapter 3 - The Storm"),
        ("Who? *Me*", "Who Me"),
        ("\"Quoted\" <b>|pipe|", "'Quoted' bpipe"),
        ("", "Section 7"),
        ("   ", "Section 7"),
        ("* * *", "Section 7"),
        ("—!?…", "Section 7"),
        ("Ünïcödé Tïtlé", "Ünïcödé Tïtlé"),
        ("第一章", "第一章"),
        ("12", "12"),
    ])
    func sanitising(title: String, expected: String) {
        #expect(OutputNaming.sanitisedTitle(title, number: 7) == expected)
    }

    /// Issue 12: a title that is only a numeral takes its part's title; any other stays as it is.
    @Test(
        arguments: [
            ("III", "Volume I", "Volume I — III"),
            ("iv.", "Book One", "Book One — iv"),
            ("XII", "Part 2", "Part 2 — XII"),
            ("12", "Volume II", "Volume II — 12"),
            (" II ", "Volume I", "Volume I — II"),
            ("I", "Tome premier", "Tome premier — I"),
            // Not bare numerals.
            ("Chapter III", "Volume I", "Chapter III"),
            ("I Am Legend", "Volume I", "I Am Legend"),
            ("Ivy", "Volume I", "Ivy"),
            ("MIX", "Volume I", "MIX"),
            ("IIII", "Volume I", "IIII"),
            ("Vi", "Volume I", "Vi"),
            ("12345", "Volume I", "12345"),
            ("", "Volume I", ""),
            // No part to take.
            ("III", nil, "III"),
            ("III", "  ", "III"),
        ] as [(String, String?, String)])
    func bareNumeralsTakeTheirPartsTitle(title: String, part: String?, expected: String) {
        #expect(OutputNaming.displayTitle(title, partTitle: part) == expected)
    }

    @Test func longTitlesAreCappedAtAGraphemeBoundary() {
        let long = String(repeating: "a", count: 79) + "e\u{301}" + String(repeating: "b", count: 50)
        let capped = OutputNaming.sanitisedTitle(long, number: 1)
        #expect(capped.count == 80)
        #expect(capped.hasSuffix("e\u{301}"))
        let wide = String(repeating: "字", count: 100)  // 3 bytes each
        let cappedWide = OutputNaming.sanitisedTitle(wide, number: 1)
        #expect(cappedWide.utf8.count <= OutputNaming.maxTitleBytes)
        #expect(cappedWide.count == 66)
        #expect(OutputNaming.sanitisedTitle("💡💡", number: 4) == "Section 4")
        let spaced = String(repeating: "a", count: 79) + " bbb"
        #expect(OutputNaming.sanitisedTitle(spaced, number: 1) == String(repeating: "a", count: 79))
    }

    @Test func fileNamesArePaddedAndSafe() {
        #expect(OutputNaming.fileName(number: 3, title: "Intro", fileExtension: "wav") == "003 - Intro.wav")
        #expect(OutputNaming.fileName(number: 1234, title: "Late", fileExtension: "mp3") == "1234 - Late.mp3")
        #expect(OutputNaming.fileName(number: 5, title: "/", fileExtension: "ogg") == "005 - Section 5.ogg")
        for title in ["../x", "/", "a/b/c", "..", ".", "\0"] {
            let name = OutputNaming.fileName(number: 1, title: title, fileExtension: "wav")
            #expect(OutputPaths.isSafeComponent(name), "\(name)")
            #expect(!name.contains("/"))
        }
    }

    @Test func duplicatesAreMadeUniqueCaseInsensitively() {
        let names = OutputNaming.fileNames(
            for: [(1, "Intro"), (1, "INTRO"), (1, "intro"), (2, "Intro")], fileExtension: "flac")
        #expect(names == ["001 - Intro.flac", "001 - INTRO (2).flac", "001 - intro (3).flac", "002 - Intro.flac"])
        #expect(Set(names.map { $0.lowercased() }).count == names.count)
    }

    @Test func partFilesAreRecognisedOnlyWhenOurs() {
        #expect(OutputFolder.isOurPartFile("001 - Intro.wav.part"))
        #expect(OutputFolder.isOurPartFile("1234 - X.mp3.part"))
        #expect(!OutputFolder.isOurPartFile("notes.part"))
        #expect(!OutputFolder.isOurPartFile("01 - Intro.wav.part"))
        #expect(!OutputFolder.isOurPartFile("001 - Intro.wav"))
    }

    @Test func playlist() {
        let text = Playlist.text([
            .init(title: "Chapter 1", file: "001 - Chapter 1.wav", durationSeconds: 61.6),
            .init(title: "Two\nlines", file: "002 - Two lines.wav", durationSeconds: 0.4),
        ])
        #expect(
            text == "#EXTM3U\n#EXTINF:62,Chapter 1\n001 - Chapter 1.wav\n#EXTINF:0,Two lines\n002 - Two lines.wav\n")
    }
}
