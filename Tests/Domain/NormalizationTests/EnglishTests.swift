import Testing

@testable import Normalization

/// British English ("en", "en-GB"): running text.
let englishCases: [(String, String)] = [
    // Roman numerals: headings cue words, monarchs and popes, and words that only look like numerals.
    ("Chapter IV", "Chapter Four"),
    ("Part III", "Part Three"),
    ("Chapter V", "Chapter Five"),
    ("Part C Core", "Part C Core"),  // a lone C, D, L or M is a letter, not 100
    ("Chapter M Matrices", "Chapter M Matrices"),
    ("Part XL", "Part Forty"),
    ("PART II", "PART Two"),
    ("see Chapter XII for details", "see Chapter Twelve for details"),
    ("Book the Second", "Book the Second"),
    ("Henry VIII", "Henry the Eighth"),
    ("Henry VIII's wives", "Henry the Eighth's wives"),
    ("Louis XIV", "Louis the Fourteenth"),
    ("Pope John XXIII", "Pope John the Twenty-third"),
    ("John Paul II visited", "John Paul the Second visited"),
    ("Elizabeth I died", "Elizabeth the First died"),
    ("Henry V was king", "Henry the Fifth was king"),
    ("King Olaf V", "King Olaf the Fifth"),
    ("Napoleon III", "Napoleon the Third"),
    ("Louis XVIII returned.", "Louis the Eighteenth returned."),
    ("World War II", "World War Two"),
    ("Act V, Scene II", "Act Five, Scene Two"),
    ("I went home", "I went home"),
    ("Then I said no.", "Then I said no."),
    // Words espeak-ng spells in capitals ("IT" as "I T"): the words in a run of capitals, and "IT"
    // alone before a stop; "the US" and "the IT department" stay capitals.
    ("THE STORY OF US", "THE STORY OF Us"),
    ("IT WAS THE BEST OF TIMES, IT WAS", "It WAS THE BEST OF TIMES, It WAS"),
    ("ALL OF US, TOO", "ALL OF Us, TOO"),
    ("I did not do IT.", "I did not do It."),
    ("I did not do IT", "I did not do It"),
    ("moved to the US.", "moved to the US."),
    ("the IT department", "the IT department"),
    ("the US Army", "the US Army"),
    ("it was us", "it was us"),
    ("MIX", "MIX"),
    ("the MIX tape", "the MIX tape"),
    ("CIVIL WAR", "CIVIL WAR"),
    ("DC Comics", "DC Comics"),
    ("Washington DC", "Washington DC"),
    ("Malcolm X", "Malcolm X"),
    ("a CD player", "a CD player"),
    ("Vitamin C", "Vitamin C"),
    ("a LCD screen", "a LCD screen"),
    ("Civil", "Civil"),
    ("the book I read", "the book I read"),
    ("Mix it well", "Mix it well"),
    ("he was the xiv guest", "he was the xiv guest"),
    ("Super Bowl LII", "Super Bowl LII"),
    ("Vol. II", "volume two"),
    ("vol. ii", "volume two"),
    ("ch. IV", "chapter four"),
    ("p. xiv", "page fourteen"),
    // Years, decades and counts.
    ("met in 1850", "met in eighteen fifty"),
    ("in 1850 the army", "in eighteen fifty the army"),
    ("1850 soldiers", "one thousand eight hundred and fifty soldiers"),
    ("a total of 1850 men", "a total of one thousand eight hundred and fifty men"),
    ("1850 was a hard year", "eighteen fifty was a hard year"),
    ("It was 1850.", "It was eighteen fifty."),
    ("(1850)", "(eighteen fifty)"),
    ("1905", "nineteen oh five"),
    ("in 1905", "in nineteen oh five"),
    ("in 1900", "in nineteen hundred"),
    ("in 2000", "in two thousand"),
    ("in 2005", "in two thousand and five"),
    ("in 2010", "in two thousand and ten"),
    ("in 2019", "in two thousand and nineteen"),
    ("in 2024", "in twenty twenty-four"),
    ("in 1066", "in ten sixty-six"),
    ("in 1001", "in one thousand and one"),
    ("since 1999", "since nineteen ninety-nine"),
    ("by 1850,", "by eighteen fifty,"),
    ("from 1914 to 1918", "from nineteen fourteen to nineteen eighteen"),
    ("between 1850 and 1860", "between eighteen fifty and eighteen sixty"),
    ("1914-1918", "nineteen fourteen to nineteen eighteen"),
    ("1914–18", "nineteen fourteen to eighteen"),
    ("1905–09", "nineteen oh five to oh nine"),
    ("44 BC", "forty-four BC"),
    ("1066 AD", "ten sixty-six AD"),
    ("in 800", "in eight hundred"),
    ("the 1920s", "the nineteen-twenties"),
    ("the 1900s", "the nineteen-hundreds"),
    ("the 2000s", "the two-thousands"),
    ("the 1920's", "the nineteen-twenties"),
    ("the '60s", "the sixties"),
    ("the ’90s", "the nineties"),
    ("the 60s", "the sixties"),
    ("c. 1850", "circa eighteen fifty"),
    ("ca. 1500", "circa fifteen hundred"),
    // Plain numbers, decimals, ordinals, fractions, percentages.
    ("0", "zero"),
    ("7 dwarfs", "seven dwarfs"),
    ("13", "thirteen"),
    ("42", "forty-two"),
    ("100", "one hundred"),
    ("101", "one hundred and one"),
    ("999", "nine hundred and ninety-nine"),
    ("1,000", "one thousand"),
    ("10,000 men", "ten thousand men"),
    ("1,850 soldiers", "one thousand eight hundred and fifty soldiers"),
    ("1,000,000", "one million"),
    ("2,500,001", "two million five hundred thousand and one"),
    ("12345", "twelve thousand three hundred and forty-five"),
    ("3.14", "three point one four"),
    ("0.5", "zero point five"),
    ("1,000.25", "one thousand point two five"),
    ("50%", "fifty percent"),
    ("12.5%", "twelve point five percent"),
    ("1st", "first"),
    ("2nd", "second"),
    ("3rd", "third"),
    ("4th", "fourth"),
    ("11th", "eleventh"),
    ("12th", "twelfth"),
    ("21st", "twenty-first"),
    ("22nd", "twenty-second"),
    ("100th", "one hundredth"),
    ("the 19th century", "the nineteenth century"),
    ("1/2 cup", "one half cup"),
    ("3/4", "three quarters"),
    ("1/3", "one third"),
    ("2/3", "two thirds"),
    ("5/8", "five eighths"),
    ("3 1/2 miles", "three and a half miles"),
    ("2 1/4", "two and a quarter"),
    ("1 3/4", "one and three quarters"),
    ("24/7", "twenty-four/seven"),
    ("3/4/2021", "3/4/2021"),
    ("-5", "minus five"),
    ("from -3 to 5", "from minus three to five"),
    // Ranges and digit-by-digit numbers.
    ("3-5", "three to five"),
    ("pages 10–20", "pages ten to twenty"),
    ("pp. 3-5", "pages three to five"),
    ("10-3", "ten-three"),
    ("won 2-1", "won two-one"),
    ("555-0123", "five five five, zero one two three"),
    ("555-1234", "five five five, one two three four"),
    ("978-3-16-148410-0", "nine seven eight, three, one six, one four eight four one zero, zero"),
    ("007", "zero zero seven"),
    (
        "1234567890123456789",
        "one two three four five six seven eight nine zero one two three four five six seven eight nine"
    ),
    ("version 3.14.1", "version 3.14.1"),
    ("192.168.0.1", "192.168.0.1"),
    ("3-5 km", "three to five kilometres"),
    // Currency and units.
    ("$3.50", "three dollars fifty"),
    ("$1", "one dollar"),
    ("$0.50", "fifty cents"),
    ("$0.01", "one cent"),
    ("$1,000", "one thousand dollars"),
    ("$5 million", "five million dollars"),
    ("$2.5 billion", "two point five billion dollars"),
    ("£5", "five pounds"),
    ("£1", "one pound"),
    ("£3.50", "three pounds fifty"),
    ("£0.20", "twenty pence"),
    ("€20", "twenty euros"),
    ("20 €", "twenty euros"),
    ("€ 20", "twenty euros"),
    ("¥100", "one hundred yen"),
    ("5 km", "five kilometres"),
    ("1 km", "one kilometre"),
    ("5km", "five kilometres"),
    ("2.5 km", "two point five kilometres"),
    ("3 kg", "three kilograms"),
    ("1 kg", "one kilogram"),
    ("500 g", "five hundred grams"),
    ("2 l", "two litres"),
    ("6 ft", "six feet"),
    ("1 ft", "one foot"),
    ("10 lbs", "ten pounds"),
    ("60 mph", "sixty miles per hour"),
    ("100 km/h", "one hundred kilometres per hour"),
    ("20°C", "twenty degrees Celsius"),
    ("20 °C", "twenty degrees Celsius"),
    ("1°C", "one degree Celsius"),
    ("98.6°F", "ninety-eight point six degrees Fahrenheit"),
    ("90°", "ninety degrees"),
    ("5 minutes", "five minutes"),
    ("5 miles", "five miles"),
    ("5 in the morning", "five in the morning"),
    // Abbreviations and initialisms.
    ("ch. 4", "chapter four"),
    ("Ch. 4", "chapter four"),
    ("Vol. 3", "volume three"),
    ("No. 3", "number three"),
    ("no. 7", "number seven"),
    ("No. I won't.", "No. I won't."),
    ("fig. 2", "figure two"),
    ("Fig. 12", "figure twelve"),
    ("p. 3", "page three"),
    ("St. James St.", "Saint James Street."),
    ("St. Paul's Cathedral", "Saint Paul's Cathedral"),
    ("Baker St. was busy", "Baker Street was busy"),
    ("Dr. Watson", "Doctor Watson"),
    ("Mr. Smith and Mrs. Smith", "Mister Smith and Missus Smith"),
    ("Ms. Jones", "Miz Jones"),
    ("Prof. Moriarty", "Professor Moriarty"),
    ("Capt. Ahab", "Captain Ahab"),
    ("Mt. Everest", "Mount Everest"),
    ("John Smith Jr. arrived", "John Smith Junior arrived"),
    ("John Smith Jr.", "John Smith Junior."),
    ("e.g. apples", "for example apples"),
    ("fruit, e.g., apples", "fruit, for example, apples"),
    ("i.e. pears", "that is pears"),
    ("apples, pears, etc.", "apples, pears, et cetera."),
    ("apples, etc. and more", "apples, et cetera and more"),
    ("Smith et al. showed", "Smith et al showed"),
    ("viz. the", "namely the"),
    ("cf. Smith", "compare Smith"),
    ("Kramer vs. Kramer", "Kramer versus Kramer"),
    ("approx. 5", "approximately five"),
    ("WWII", "World War Two"),
    ("WWI", "World War One"),
    ("after WW2 ended", "after World War Two ended"),
    ("WWIII", "WWIII"),
    // Dates and times.
    ("3 March 1921", "the third of March nineteen twenty-one"),
    ("on 3 March 1921", "on the third of March nineteen twenty-one"),
    ("March 3, 1921", "March third, nineteen twenty-one"),
    ("March 1921", "March nineteen twenty-one"),
    ("the 3rd of March", "the third of March"),
    ("3rd March", "the third of March"),
    ("1 January 2000", "the first of January two thousand"),
    ("December 25", "December twenty-fifth"),
    ("10:30 a.m.", "ten thirty a m."),
    ("10:30 a.m. The", "ten thirty a m. The"),
    ("at 4:05 p.m.", "at four oh five p m."),
    ("at 4.15 p.m. sharp", "at four fifteen p m sharp"),
    ("at 9.00 a.m.", "at nine a m."),
    ("a 4.15 ratio", "a four point one five ratio"),
    ("10:00 a.m.", "ten a m."),
    ("at 10:00", "at ten o'clock"),
    ("18:45", "eighteen forty-five"),
    ("10:30 a.m. on Monday", "ten thirty a m on Monday"),
    ("1905-09", "nineteen oh five to oh nine"),
    ("Vol. I", "volume one"),
    ("Chapter I", "Chapter One"),
    ("John 3:16", "John three sixteen"),
    // Things that are not numbers to read.
    ("MP3 player", "MP3 player"),
    ("A4 paper", "A4 paper"),
    ("3D film", "3D film"),
    ("4x4", "4x4"),
    ("It's fine.", "It's fine."),
    ("", ""),
]

/// Four-digit numbers in running text with no cue word before them (issue 12): a year unless a unit, a
/// currency or a plural noun makes them a quantity.
let englishYearsInContext: [(String, String)] = [
    ("the winter of 1907", "the winter of nineteen oh seven"),
    ("the winter of 1907 was cold", "the winter of nineteen oh seven was cold"),
    ("In the winter of 1907 the river froze.", "In the winter of nineteen oh seven the river froze."),
    ("the 1912 census", "the nineteen twelve census"),
    ("the 1912 census counted them", "the nineteen twelve census counted them"),
    ("the 1899 edition", "the eighteen ninety-nine edition"),
    ("the 1899 edition of the atlas", "the eighteen ninety-nine edition of the atlas"),
    ("a 1923 recording", "a nineteen twenty-three recording"),
    ("the 1851 exhibition closed", "the eighteen fifty-one exhibition closed"),
    ("his 1905 paper on light", "his nineteen oh five paper on light"),
    ("the 1871 census records", "the eighteen seventy-one census records"),
    ("the 2004 crisis", "the two thousand and four crisis"),
    ("(1819–1894)", "(eighteen nineteen to eighteen ninety-four)"),
    // Quantities stay counts: a plural noun, a unit, money, a thousands separator.
    ("1907 soldiers", "one thousand nine hundred and seven soldiers"),
    ("the 1907 soldiers", "the one thousand nine hundred and seven soldiers"),
    ("1907 men and 12 women", "one thousand nine hundred and seven men and twelve women"),
    ("some 1500 people", "some one thousand five hundred people"),
    ("1500 copies were printed", "one thousand five hundred copies were printed"),
    ("1907 new recruits", "one thousand nine hundred and seven new recruits"),
    ("$1907", "one thousand nine hundred and seven dollars"),
    ("£1907", "one thousand nine hundred and seven pounds"),
    ("1907 kg", "one thousand nine hundred and seven kilograms"),
    ("1907 km of road", "one thousand nine hundred and seven kilometres of road"),
    ("1,907 soldiers", "one thousand nine hundred and seven soldiers"),
    ("1907.5", "one thousand nine hundred and seven point five"),
    // Outside 1100-2099 without a cue: a count.
    ("the 1050 tiles", "the one thousand and fifty tiles"),
    ("the 2500 metre", "the two thousand five hundred metre"),
]

/// American English ("en-US"): no "and" after hundreds; "twenty ten".
let americanCases: [(String, String)] = [
    ("1850 soldiers", "one thousand eight hundred fifty soldiers"),
    ("in 1850", "in eighteen fifty"),
    ("in 2005", "in two thousand five"),
    ("in 2010", "in twenty ten"),
    ("in 2019", "in twenty nineteen"),
    ("101", "one hundred one"),
    ("5 km", "five kilometers"),
    ("2 l", "two liters"),
    ("$3.50", "three dollars fifty"),
    ("Henry VIII", "Henry the Eighth"),
]

/// Headings and table-of-contents titles.
let headingCases: [(String, String)] = [
    ("IV. The Storm", "Four. The Storm"),
    ("IV", "Four"),
    ("XII: Home", "Twelve: Home"),
    ("II The Return", "Two The Return"),
    ("I. Introduction", "One. Introduction"),
    ("I", "One"),
    ("I Went Home", "I Went Home"),
    ("Chapter IV", "Chapter Four"),
    ("CHAPTER XIV", "CHAPTER Fourteen"),
    ("Book the Second", "Book the Second"),
    ("The Reign of Henry VIII", "The Reign of Henry the Eighth"),
    ("1984", "nineteen eighty-four"),
    ("MIX", "MIX"),
]

@Suite("English")
struct EnglishTests {
    @Test(arguments: englishCases)
    func britishRunningText(input: String, expected: String) {
        #expect(TextNormalizer(language: "en").normalize(input) == expected)
    }

    @Test(arguments: englishCases)
    func enGBMatchesEn(input: String, expected: String) {
        #expect(TextNormalizer(language: "en-GB").normalize(input) == TextNormalizer(language: "en").normalize(input))
    }

    @Test(arguments: englishYearsInContext)
    func yearsInContext(input: String, expected: String) {
        #expect(TextNormalizer(language: "en").normalize(input) == expected)
    }

    @Test(arguments: americanCases)
    func americanRunningText(input: String, expected: String) {
        #expect(TextNormalizer(language: "en-US").normalize(input) == expected)
    }

    @Test(arguments: headingCases)
    func headings(input: String, expected: String) {
        #expect(TextNormalizer(language: "en").normalize(input, context: .heading) == expected)
    }

    @Test func runningTextDoesNotTreatALeadingNumeralAsAHeading() {
        #expect(TextNormalizer(language: "en").normalize("IV. The Storm") == "IV. The Storm")
    }

    @Test func longerPassage() {
        let input = "In 1850, Dr. Watson paid $3.50 for 2 kg of tea at St. Mary's, i.e. 50% more than in 1849."
        let expected =
            "In eighteen fifty, Doctor Watson paid three dollars fifty for two kilograms of tea at "
            + "Saint Mary's, that is fifty percent more than in eighteen forty-nine."
        #expect(TextNormalizer(language: "en").normalize(input) == expected)
    }
}
