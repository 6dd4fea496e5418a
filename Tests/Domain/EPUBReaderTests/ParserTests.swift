import Testing

@testable import EPUBReader

@Suite struct ContainerPathTests {
    @Test(arguments: [
        ("text/a.xhtml", "OEBPS/", "OEBPS/text/a.xhtml"),
        ("../images/c.jpg", "OEBPS/text/", "OEBPS/images/c.jpg"),
        ("./a/./b/../c.xhtml", "", "a/c.xhtml"),
        ("/root.xhtml", "OEBPS/text/", "root.xhtml"),
        // Empty segments and dots at the start of a segment are resolved; dots inside are names.
        ("text//a.xhtml", "OEBPS/", "OEBPS/text/a.xhtml"),
        ("text/", "OEBPS/", "OEBPS/text"),
        ("a.xhtml", "/OEBPS/", "OEBPS/a.xhtml"),
        (".hidden/a.xhtml", "OEBPS/", "OEBPS/.hidden/a.xhtml"),
        ("text/..a/b.c.xhtml", "", "text/..a/b.c.xhtml"),
        ("text/.", "OEBPS/", "OEBPS/text"),
        ("", "OEBPS/", "OEBPS"),
        ("", "", ""),
        // A slash followed by a combining mark is one character: no segment ends there.
        ("a/\u{301}b/c.xhtml", "", "a/\u{301}b/c.xhtml"),
    ])
    func resolves(href: String, base: String, expected: String) {
        #expect(ContainerPath.resolve(href, against: base) == expected)
    }

    @Test func refusesClimbingOutOfTheContainer() {
        #expect(ContainerPath.resolve("../../etc/passwd", against: "OEBPS/") == nil)
        #expect(ContainerPath.resolve("../a.xhtml", against: "") == nil)
    }

    @Test func splitsDecodesAndDropsExternalURLs() throws {
        let split = try #require(ContainerPath.split(href: "chapter%201.xhtml?x=1#sec%202"))
        #expect(split.path == "chapter 1.xhtml")
        #expect(split.fragment == "sec 2")
        #expect(ContainerPath.split(href: "http://example.com/a.xhtml") == nil)
        #expect(ContainerPath.split(href: "mailto:someone@example.com") == nil)
        #expect(ContainerPath.split(href: "#note")?.path == "")
        #expect(ContainerPath.percentDecoded("100%") == "100%")
    }

    @Test(arguments: [
        ("Chapter One", "Chapter One"), ("  Chapter\n\tOne ", "Chapter One"), ("A  B", "A B"),
        ("A\u{A0}B", "A B"), ("A\u{2003}B", "A B"), ("A\u{3000}B", "A B"), ("A\u{85}B", "A B"),
        ("आदि पर्व", "आदि पर्व"), ("“Quoted” — yes", "“Quoted” — yes"), ("", ""), (" ", ""),
    ])
    func collapsesWhitespaceInLabels(label: String, expected: String) {
        #expect(label.collapsingWhitespace() == expected)
    }

    @Test func splitTrimsWhitespaceAroundAnHref() {
        #expect(ContainerPath.split(href: " text/a.xhtml#x \n")?.path == "text/a.xhtml")
        #expect(ContainerPath.split(href: "\ttext/a.xhtml#x")?.fragment == "x")
        #expect(ContainerPath.split(href: "\u{A0}a.xhtml\u{3000}")?.path == "a.xhtml")
        #expect(ContainerPath.split(href: "a.xhtml\u{301}")?.path == "a.xhtml\u{301}")
        #expect(ContainerPath.split(href: " ")?.path == "")
    }

    @Test func expressesPathsRelativeToThePackageFolder() {
        #expect(ContainerPath.relative("OEBPS/text/a.xhtml", to: "OEBPS/") == "text/a.xhtml")
        #expect(ContainerPath.relative("images/c.jpg", to: "OEBPS/") == "../images/c.jpg")
        #expect(ContainerPath.relative("a.xhtml", to: "") == "a.xhtml")
    }
}

@Suite struct ContainerParserTests {
    @Test func findsTheRootfile() throws {
        let container = try ContainerParser(bytes: utf8(containerXML))
        #expect(container.packagePath == "OEBPS/content.opf")
        #expect(container.warnings.isEmpty)
    }

    @Test func usesTheFirstOfSeveralWithAWarning() throws {
        let container = try ContainerParser(bytes: try fixture("container-multiple.xml"))
        #expect(container.packagePath == "OEBPS/first.opf")
        #expect(container.rootfiles.count == 2)
        #expect(container.warnings.count == 1)
    }

    @Test(arguments: [
        ("", "empty"),
        ("../../../../etc/hostname", "outside"),
        ("META-INF/container.xml", "itself"),
        ("meta-inf/../META-INF/container.xml", "itself"),
    ])
    func refusesBadRootfiles(fullPath: String, reason: String) {
        let xml = containerXML.replacingOccurrences(of: "OEBPS/content.opf", with: fullPath)
        #expect {
            try ContainerParser(bytes: utf8(xml))
        } throws: { error in
            switch error as? EPUBError {
            case .missingRootfile(_, let message), .invalidRootfile(_, let message): return message.contains(reason)
            default: return false
            }
        }
    }

    @Test func refusesContainerWithoutRootfile() {
        let xml = "<container xmlns=\"urn:oasis:names:tc:opendocument:xmlns:container\"><rootfiles/></container>"
        #expect(
            throws: EPUBError.missingRootfile(
                container: "META-INF/container.xml", reason: "no <rootfile> with a full-path")
        ) {
            try ContainerParser(bytes: utf8(xml))
        }
    }
}

@Suite struct PackageParserTests {
    @Test func aConvertersPlaceholderAuthorIsNoAuthor() {
        // calibre writes "Unknown" when it knows no author; it is kept as a creator, not shown as one.
        let metadata = EPUBMetadata(
            creators: [EPUBCreator(name: "Unknown", role: "aut"), EPUBCreator(name: "Ann Lee")])
        #expect(metadata.authors == ["Ann Lee"])
        #expect(EPUBMetadata(creators: [EPUBCreator(name: "unknown")]).authors.isEmpty)
        #expect(metadata.creators.count == 2)
    }

    @Test func readsEPUB3Metadata() throws {
        let opf = try PackageParser(bytes: try fixture("package-epub3.opf"), path: "OEBPS/content.opf")
        let metadata = opf.metadata
        #expect(opf.version == "3.0")
        #expect(opf.packageDirectory == "OEBPS/")
        #expect(metadata.titles == ["A Subtitle", "The Main Title"])
        #expect(metadata.title == "The Main Title")
        #expect(
            metadata.creators == [
                EPUBCreator(name: "Herman Melville", role: "aut", fileAs: "Melville, Herman"),
                EPUBCreator(name: "Jane Translator", role: "trl"),
            ])
        #expect(metadata.authors == ["Herman Melville"])
        #expect(metadata.contributors.map(\.name) == ["Some Editor"])
        #expect(metadata.languages == ["en-US", "fr"])
        #expect(metadata.identifier == "urn:uuid:12345678-1234-1234-1234-123456789abc")
        #expect(metadata.publisher == "A Press")
        #expect(metadata.date == "1851-10-18")
        #expect(metadata.description == "A whale of a tale.")
        #expect(metadata.coverImage == "images/cover art.jpg")
    }

    @Test func readsManifestSpineAndNavigationItems() throws {
        let opf = try PackageParser(bytes: try fixture("package-epub3.opf"), path: "OEBPS/content.opf")
        #expect(opf.manifest.count == 8)
        #expect(opf.manifest.first { $0.id == "c01" }?.href == "text/chapter 1.xhtml")
        #expect(opf.spine.map(\.item.id) == ["c01", "c02", "notes", "scan-html"])
        #expect(opf.spine.map(\.index) == [0, 1, 2, 3])
        #expect(opf.spine.map(\.linear) == [true, true, false, true])
        #expect(opf.spine[1].properties == ["page-spread-left"])
        #expect(opf.navItem?.href == "nav/toc.xhtml")
        #expect(opf.ncxItem?.href == "toc.ncx")
        #expect(opf.warnings.isEmpty)
    }

    @Test func aCreatorWithSeveralRolesIsAnAuthorWhenOneIsAut() throws {
        // Standard Ebooks refine one creator as annotator and author: the first role is not the only one.
        let opf = """
            <?xml version="1.0"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier>
            <dc:title>T</dc:title><dc:language>en</dc:language>
            <dc:creator id="author">H. G. Wells</dc:creator>
            <meta property="role" refines="#author" scheme="marc:relators">ann</meta>
            <meta property="role" refines="#author" scheme="marc:relators">aut</meta>
            <dc:creator id="ill">A. Artist</dc:creator>
            <meta property="role" refines="#ill" scheme="marc:relators">ill</meta>
            </metadata><manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest>
            <spine><itemref idref="c"/></spine></package>
            """
        let parsed = try PackageParser(bytes: Array(opf.utf8), path: "content.opf")
        #expect(parsed.metadata.authors == ["H. G. Wells"])
    }

    /// The description a package gives, written as `inner` inside `dc:description`.
    static func description(_ inner: String) throws -> EPUBMetadata {
        let opf = """
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier>
            <dc:title>T</dc:title><dc:description>\(inner)</dc:description></metadata>
            <manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest>
            <spine><itemref idref="c"/></spine></package>
            """
        return try PackageParser(bytes: Array(opf.utf8), path: "content.opf").metadata
    }

    @Test(
        "the description as plain text: escaped HTML or elements removed, entities decoded, blocks apart",
        arguments: [
            // Escaped HTML, as Standard Ebooks write it: paragraphs, emphasis, a link, an entity escaped twice.
            (
                "\n\t\t&lt;p&gt;&lt;i&gt;The Lamp&lt;/i&gt; is a novel.&lt;/p&gt;\n\t\t&lt;p&gt;Read it "
                    + "&lt;a href=\"https://example.org\"&gt;online&lt;/a&gt; &amp;amp; aloud.&lt;/p&gt;",
                "The Lamp is a novel. Read it online & aloud."
            ),
            // Elements inside the description: their text, a space between blocks.
            (
                "<p xmlns=\"http://www.w3.org/1999/xhtml\">One.</p><p xmlns=\"http://www.w3.org/1999/xhtml\">Two.</p>",
                "One. Two."
            ),
            ("Line one&lt;br/&gt;line two&amp;nbsp;&amp;mdash;&amp;#233;t&amp;eacute;", "Line one line two —été"),
            ("&lt;style&gt;p { color: red }&lt;/style&gt;&lt;p&gt;Shown.&lt;/p&gt;", "Shown."),
            ("  Plain   text,\n  kept  ", "Plain text, kept"),
            ("Fish &amp; chips", "Fish & chips"),
        ])
    func descriptionIsPlainText(written: String, plain: String) throws {
        #expect(try Self.description(written).descriptionText == plain)
    }

    @Test func aDescriptionOfMarkupAloneIsNone() throws {
        #expect(try Self.description("&lt;p&gt;&lt;/p&gt;&lt;br/&gt;").descriptionText == nil)
        #expect(try Self.description("").descriptionText == nil)
    }

    @Test func aLanguageLongerThanAnyTagIsNoLanguage() throws {
        // A 3 MB dc:language cost minutes of voice matching; a tag is a few subtags.
        func languages(_ values: [String]) throws -> [String] {
            let opf = """
                <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
                <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier>
                <dc:title>T</dc:title>\(values.map { "<dc:language>\($0)</dc:language>" }.joined())</metadata>
                <manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest>
                <spine><itemref idref="c"/></spine></package>
                """
            return try PackageParser(bytes: Array(opf.utf8), path: "content.opf").metadata.languages
        }
        let long = String(repeating: "T", count: 65)
        #expect(try languages([long, "sr-Latn-RS"]) == ["sr-Latn-RS"])
        #expect(try languages([String(repeating: "x", count: 64)]).count == 1)
        #expect(try languages([long]).isEmpty)
    }

    @Test func aPackageNestedTooDeepSaysSoWithoutLibxml2sAdvice() {
        let nested = String(repeating: "<meta>", count: 300) + String(repeating: "</meta>", count: 300)
        let opf =
            "<package xmlns=\"http://www.idpf.org/2007/opf\" version=\"3.0\"><metadata>\(nested)</metadata></package>"
        #expect {
            try PackageParser(bytes: Array(opf.utf8), path: "c.opf")
        } throws: { error in
            guard case EPUBError.malformedXML(_, let message) = error else { return false }
            return message.contains("elements nested more than 256 deep") && !message.contains("XML_PARSE_HUGE")
        }
    }

    @Test func readsEPUB2MetadataAndGuide() throws {
        let opf = try PackageParser(bytes: try fixture("package-epub2.opf"), path: "content.opf")
        #expect(opf.packageDirectory == "")
        #expect(opf.metadata.title == "Whose Body?")
        #expect(
            opf.metadata.creators.first
                == EPUBCreator(name: "Dorothy L. Sayers", role: "aut", fileAs: "Sayers, Dorothy L."))
        #expect(opf.metadata.creators.last?.role == "ill")
        #expect(opf.metadata.authors == ["Dorothy L. Sayers"])
        #expect(opf.metadata.identifier == "http://www.gutenberg.org/58820")
        #expect(opf.metadata.coverImage == "cover.jpg")
        #expect(
            opf.guide.first
                == EPUBLandmark(type: "text", title: "Start", target: EPUBLink(path: "ch1.html", fragment: "start")))
        #expect(opf.navItem == nil)
        #expect(opf.ncxItem?.id == "ncx")
    }

    private func opf(manifest: String, spine: String) -> [UInt8] {
        utf8(
            """
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/>
            <manifest>\(manifest)</manifest><spine>\(spine)</spine></package>
            """)
    }

    @Test func dropsRepeatedAndUnknownItemrefsWithWarnings() throws {
        let parsed = try PackageParser(
            bytes: opf(
                manifest: "<item id=\"a\" href=\"a.xhtml\" media-type=\"application/xhtml+xml\"/>",
                spine: "<itemref idref=\"a\"/><itemref idref=\"a\"/><itemref idref=\"ghost\"/><itemref idref=\"a\"/>"),
            path: "p.opf")
        #expect(parsed.spine.map(\.item.id) == ["a"])
        #expect(parsed.warnings.contains { $0.message.contains("repeated 2") })
        #expect(parsed.warnings.contains { $0.message.contains("ghost") })
    }

    /// Two manifest items naming one file are one document: read twice, its text is heard twice.
    @Test func readsAFileTheSpineNamesUnderTwoIdsOnce() throws {
        let parsed = try PackageParser(
            bytes: opf(
                manifest: """
                    <item id="a" href="Text/ch1.xhtml" media-type="application/xhtml+xml"/>
                    <item id="b" href="Text/./ch1.xhtml" media-type="application/xhtml+xml"/>
                    <item id="c" href="Text/ch%31.xhtml" media-type="application/xhtml+xml"/>
                    <item id="d" href="Text/ch2.xhtml" media-type="application/xhtml+xml"/>
                    """,
                spine: "<itemref idref=\"a\"/><itemref idref=\"b\"/><itemref idref=\"d\"/><itemref idref=\"c\"/>"),
            path: "OEBPS/p.opf")
        #expect(parsed.spine.map(\.item.id) == ["a", "d"])
        #expect(parsed.spine.map(\.index) == [0, 1])
        #expect(parsed.warnings.contains { $0.message.contains("'a' and 'b' are the same file") })
    }

    @Test func dropsFallbackCyclesAndForeignItems() throws {
        let manifest = """
            <item id="x1" href="x1.bin" media-type="application/x-foo" fallback="x2"/>
            <item id="x2" href="x2.bin" media-type="application/x-foo" fallback="x1"/>
            <item id="self" href="s.bin" media-type="application/x-foo" fallback="self"/>
            <item id="pdf" href="a.pdf" media-type="application/pdf"/>
            <item id="ok" href="ok.xhtml" media-type="application/xhtml+xml" fallback="ok"/>
            """
        let parsed = try PackageParser(
            bytes: opf(
                manifest: manifest,
                spine: "<itemref idref=\"x1\"/><itemref idref=\"self\"/><itemref idref=\"pdf\"/><itemref idref=\"ok\"/>"
            ),
            path: "p.opf")
        #expect(parsed.spine.map(\.item.id) == ["ok"])
        #expect(parsed.warnings.filter { $0.message.contains("loops") }.count == 2)
        #expect(parsed.warnings.contains { $0.message.contains("'pdf'") })
    }

    @Test func aScriptedItemIsReadFromItsUnscriptedFallback() throws {
        let manifest = """
            <item id="quiz" href="quiz.xhtml" media-type="application/xhtml+xml" properties="scripted" fallback="quiz-js2"/>
            <item id="quiz-js2" href="quiz2.xhtml" media-type="application/xhtml+xml" properties="scripted" fallback="quiz-text"/>
            <item id="quiz-text" href="quiz-text.xhtml" media-type="application/xhtml+xml"/>
            <item id="game" href="game.xhtml" media-type="application/xhtml+xml" properties="scripted"/>
            <item id="loop" href="loop.xhtml" media-type="application/xhtml+xml" properties="scripted" fallback="loop2"/>
            <item id="loop2" href="loop2.xhtml" media-type="application/xhtml+xml" properties="scripted" fallback="loop"/>
            <item id="plain" href="plain.xhtml" media-type="application/xhtml+xml" fallback="quiz-text"/>
            """
        let parsed = try PackageParser(
            bytes: opf(
                manifest: manifest,
                spine: ["quiz", "game", "loop", "plain"].map { "<itemref idref=\"\($0)\"/>" }.joined()),
            path: "p.opf")
        // No unscripted fallback: the scripted document itself. Not scripted: never replaced.
        #expect(parsed.spine.map(\.item.id) == ["quiz-text", "game", "loop", "plain"])
        #expect(!parsed.warnings.contains { $0.message.contains("spine") })
    }

    @Test func dropsManifestHrefsThatLeaveTheContainer() throws {
        let parsed = try PackageParser(
            bytes: opf(
                manifest: "<item id=\"a\" href=\"../../../../etc/passwd\" media-type=\"application/xhtml+xml\"/>",
                spine: "<itemref idref=\"a\"/>"),
            path: "OEBPS/p.opf")
        #expect(parsed.manifest.isEmpty)
        #expect(parsed.spine.isEmpty)
        #expect(parsed.warnings.contains { $0.message.contains("outside the book") })
    }

    @Test func refusesMissingSpineAndMalformedXML() {
        let noSpine = utf8("<package xmlns=\"http://www.idpf.org/2007/opf\"><metadata/><manifest/></package>")
        #expect(throws: EPUBError.missingSpine(file: "p.opf")) { try PackageParser(bytes: noSpine, path: "p.opf") }
        #expect(throws: EPUBError.self) {
            try PackageParser(bytes: utf8("<package><metadata></package>"), path: "p.opf")
        }
        #expect(throws: EPUBError.self) { try PackageParser(bytes: utf8("<html/>"), path: "p.opf") }
    }

    @Test func titleEntityFromInternalSubsetIsNeverExpanded() throws {
        let bytes = utf8(
            """
            <?xml version="1.0"?>
            <!DOCTYPE package [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0">
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>&lol2;</dc:title></metadata>
            <manifest/><spine/></package>
            """)
        let parsed = try PackageParser(bytes: bytes, path: "p.opf")
        #expect(parsed.metadata.title == nil)
        #expect(parsed.warnings.contains { $0.message.contains("never expanded") })
    }
}

@Suite struct NavigationParserTests {
    @Test func readsNestedTOCRelativeToThePackageFolder() throws {
        // The nav lives in OEBPS/nav/, the package in OEBPS/.
        let nav = try NavigationParser(
            bytes: try fixture("nav-nested.xhtml"), path: "OEBPS/nav/toc.xhtml", packageDirectory: "OEBPS/")
        #expect(nav.hasTOCNav)
        #expect(nav.toc.map(\.label) == ["Chapter One", "Part Two", "Elsewhere"])
        #expect(nav.toc[0].target == EPUBLink(path: "text/chapter 1.xhtml"))
        #expect(nav.toc[1].target == nil)
        #expect(nav.toc[1].children.map(\.label) == ["Section 1", "Section 2"])
        #expect(nav.toc[1].children[0].target == EPUBLink(path: "text/chapter-2.xhtml", fragment: "sec1"))
        #expect(nav.toc[2].target == nil)  // external
        #expect(nav.landmarks.map(\.type) == ["bodymatter", "toc"])
        #expect(nav.landmarks[1].target == EPUBLink(path: "nav/toc.xhtml", fragment: "toc"))
        // page-list is not in the TOC.
        #expect(!nav.toc.flatMap(\.flattened).contains { $0.label == "1" })
    }

    @Test func brokenMarkupIsReadWithAWarning() throws {
        let html =
            "<html><body><nav epub:type=\"toc\"><ol><li><a href=\"a.xhtml\">A &amp; B &mdash; AT&T</a><li><a href=\"b.xhtml\">B</a></ol></nav>"
        let nav = try NavigationParser(bytes: utf8(html), path: "nav.xhtml", packageDirectory: "")
        #expect(nav.toc.map(\.label) == ["A & B \u{2014} AT&T", "B"])
    }

    @Test func aLabelDrawnAsAnImageReadsAsItsAltText() throws {
        let nav = try NavigationParser(
            bytes: try fixture("nav-image-labels.xhtml"), path: "OEBPS/toc.xhtml", packageDirectory: "OEBPS/")
        // Words beat alt text; an image without alt falls back to the link's title.
        #expect(nav.toc.map(\.label) == ["Chapter One", "Chapter Two", "Chapter Three", "Chapter Four"])
        #expect(nav.landmarks.map(\.title) == ["Start reading"])
    }

    @Test func navWithoutTOCSaysSo() throws {
        let html =
            "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><nav><ol><li><a href=\"a.xhtml\">A</a></li></ol></nav></body></html>"
        let nav = try NavigationParser(bytes: utf8(html), path: "nav.xhtml", packageDirectory: "")
        #expect(!nav.hasTOCNav)
        #expect(nav.toc.isEmpty)
    }
}

@Suite struct NCXParserTests {
    @Test func readsNestedNavPointsInDocumentOrder() throws {
        let ncx = try NCXParser(bytes: try fixture("toc-nested.ncx"), path: "OEBPS/toc.ncx", packageDirectory: "OEBPS/")
        #expect(ncx.toc.map(\.label) == ["Chapter I", "Chapter II"])
        #expect(
            ncx.toc[0].children == [TOCEntry(label: "Part A", target: EPUBLink(path: "text/ch1.xhtml", fragment: "a"))])
        #expect(ncx.toc[1].target == EPUBLink(path: "text/ch 2.xhtml"))
    }

    @Test func resolvesAgainstTheNCXFolder() throws {
        let ncx = try NCXParser(
            bytes: try fixture("toc-nested.ncx"), path: "OEBPS/nav/toc.ncx", packageDirectory: "OEBPS/")
        #expect(ncx.toc[0].target?.path == "nav/text/ch1.xhtml")
    }

    @Test func aNavLabelDrawnAsAnImageReadsAsItsAltText() throws {
        let ncx = try NCXParser(
            bytes: try fixture("toc-image-labels.ncx"), path: "OEBPS/toc.ncx", packageDirectory: "OEBPS/")
        #expect(ncx.toc.map(\.label) == ["Chapter One", "Chapter Two", "Chapter Three"])
    }

    @Test func malformedNCXThrows() {
        #expect(throws: EPUBError.self) {
            try NCXParser(bytes: utf8("<ncx><navMap><navPoint></ncx>"), path: "toc.ncx", packageDirectory: "")
        }
    }
}
