import Testing

@testable import BookText

@Suite struct CitationFilterTests {
    @Test(arguments: [
        ("Clocks drift (Smith, 2020).", "Clocks drift."),
        ("Known since (Okafor & Lindqvist 2019; Brandt et al., 2021a, p. 4) at least.", "Known since at least."),
        ("As shown (see Miller 1999, pp. 41-43), it works.", "As shown, it works."),
        ("Drums were common [12].", "Drums were common."),
        ("Several authors agree [3-5] on this.", "Several authors agree on this."),
        ("Two sources [1, 4] disagree.", "Two sources disagree."),
        ("It was reported (Brandt et al., 2021b).", "It was reported."),
        ("Text [Pg 12] continues.", "Text continues."),
        ("Cited twice (Smith 2020, 2021).", "Cited twice."),
    ])
    func removesCitations(input: String, expected: String) {
        #expect(CitationFilter.removeCitations(from: input) == expected)
    }

    @Test(arguments: [
        "I built one in 1984, in the kitchen.",
        "She waited (as she always did, though she hated it) on the step.",
        "The war (1914–1918) changed everything.",
        "He lived there (in 1984) and left.",
        "She was born (Born 1952) in Leeds.",
        "See Chapter (i) of the appendix.",
        "It happened (May 1968) in Paris.",
        "Take the interval [0, 1] and halve it.",
        "The Smiths (who came in 1850) stayed.",
        "A value [sic] was printed.",
        "Described in (Chapter 3, p. 4) above.",
    ])
    func keepsLookAlikes(input: String) {
        #expect(CitationFilter.removeCitations(from: input) == input)
    }
}
