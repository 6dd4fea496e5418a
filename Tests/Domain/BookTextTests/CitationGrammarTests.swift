import Testing

@testable import BookText

/// Issue 31: the parts of a citation and the orders that make one.
@Suite struct CitationGrammarTests {
    @Test(arguments: [
        ("Girard", "A"), ("Krause/Lenz", "A"), ("Krause u. Lenz", "A"), ("Dupont et Durand", "A"),
        ("Lee et al.", "A"), ("J.-P. Sartre", "A"), ("d'Alembert", "A"), ("Le Roy Ladurie", "A"),
        ("Stadtarchiv Bremen", "R"), ("TNA", "R"), ("GStA PK", "R"), ("Archives départementales du Nord", "R"),
        ("Chronicles of the Marsh", "T"), ("Règlement intérieur", "T"), ("« La grève de 1869 »", "T"),
        ("Zeitschrift für Sozialgeschichte 12", "T"), ("Polizeibericht vom 3. Mai 1890", "T"), ("The Times", "J"),
        ("Vossische Zeitung", "J"), ("Le Moniteur", "J"), ("o. S.", "P"), ("f° 23", "P"),
        ("Braun 2011: 30 f.", "B"), ("Hale 1879", "B"), ("quoted in Keller 2010", "B"), ("Schulz u. a. 2015", "B"),
        ("Marx [1867] 1962: 12", "B"), ("García y López 2001: 45", "B"),
        ("1898", "Y"), ("2016: 12 ff.", "Y"), ("1978 : 45", "Y"), ("o. J.", "Y"), ("n. d.", "Y"), ("1890/91", "Y"),
        ("12 March 1666", "D"), ("3. Mai 1848", "D"), ("1er mai 1848", "D"),
        ("ibid.", "I"), ("ebd.: 45", "I"), ("a. a. O.", "I"), ("art. cit.", "I"), ("ouvr. cité", "I"), ("ibíd.", "I"),
        ("ivi", "I"), ("ders. 1985: 102", "I"), ("cit.", "C"),
        ("Akte 7", "L"), ("Nr. 19", "L"), ("art. 6", "L"), ("§ 3 Abs. 2", "L"), ("table 7.8", "L"), ("Kap. 3", "L"),
        ("p. lx-lxii", "P"), ("t. III", "P"), ("iii. 212", "P"), ("fol. 12r", "P"), ("fols. 34v–35r", "P"),
        ("S. 58 Anm. 12", "P"), ("HE ii. 13", "P"), ("pág. 12", "P"), ("p. 213 sq.", "P"), ("p. 20 et suiv.", "P"),
        ("88", "N"), ("255 f.", "N"), ("45 ss.", "N"), ("passim", "N"), ("III", "N"),
        ("CO 137/45", "S"), ("F7 12345", "S"), ("ms. fr. 1234", "S"), ("3 E 456", "S"), ("c. 1790", "S"),
    ])
    func kindOfAPart(part: String, kind: String) {
        #expect(CitationGrammar.kind(of: part[...])?.rawValue == kind.first)
    }

    @Test(arguments: [
        "3 Mark pro Tag", "im Jahr 1890 gegründet", "he was 12 at the time", "Born 1952", "May 1968", "März 1902",
        "Stand 2019", "Chapter 3", "1905: 190.000", "davon 312 Frauen", "soit 3 francs par jour", "n = 312",
        "More on this later",
    ])
    func proseIsNoPart(part: String) {
        #expect(CitationGrammar.kind(of: part[...]) == nil)
    }

    @Test(arguments: [
        ("vgl. Braun 2011: 30 f.", "B"), ("Roux, 1898, t. III, p. lx-lxii", "AYPP"),
        ("voir Girard, art. cit., p. 31", "AIP"),
        ("Hale, Chronicles of the Marsh, iii. 212", "ATP"), ("Règlement intérieur, 1890, art. 6", "TYL"),
        ("Stadtarchiv Bremen, Akte 7, Nr. 19", "RLL"), ("Landesarchiv, Best. 4, fol. 12r", "RLP"),
        ("AN, F7 12345", "RS"),
        ("Varga, quoted in Keller 2010, 88", "ABN"), ("Pepys, Diary, 12 March 1666", "AAD"), ("ebd., S. 112", "IP"),
        ("see, e.g., Hobsbawm 1962, ch. 2", "BL"), ("Rossi, cit., p. 12", "ACP"), ("Id., ibid., p. 3", "IIP"),
    ])
    func citationsFollowAnOrder(segment: String, kinds: String) {
        #expect(CitationGrammar.kinds(of: segment[...]) == kinds)
        #expect(CitationGrammar.isCitation(segment[...]))
    }

    /// Parts that are each of a kind, in an order no citation takes.
    @Test(arguments: [
        ("c. 1790", "S"), ("1821–1881", "N"), ("Hale, 45", "AN"), ("DDR, 1949–1990", "RN"),
        ("London, 12 March 1666", "AD"), ("Art. 48 Abs. 2 WRV", "S"), ("Kap. 3", "L"), ("Louis XIV, 1643-1715", "AN"),
        ("1890, S. 45", "YP"),
    ])
    func otherOrdersAreProse(segment: String, kinds: String) {
        #expect(CitationGrammar.kinds(of: segment[...]) == kinds)
        #expect(!CitationGrammar.isCitation(segment[...]))
    }

    @Test(arguments: [
        "2016: 12 ff.", "1998, pp. 12–14", "a. a. O., S. 14", "op. cit., t. I, p. 78", "iii. 212", "2015a, 2017",
    ])
    func whatFollowsAnAuthorNamedOutside(segment: String) {
        #expect(CitationGrammar.isCitationAfterAuthor(segment[...]))
    }

    @Test(arguments: ["1812–1870", "c. 1790", "12 March 1666", "Nr. 5", "1905: 190.000"])
    func whatDoesNotFollowAnAuthor(segment: String) {
        #expect(!CitationGrammar.isCitationAfterAuthor(segment[...]))
    }
}
