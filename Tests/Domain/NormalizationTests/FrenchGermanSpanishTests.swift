import Testing

@testable import Normalization

let frenchCases: [(String, String)] = [
    ("en 1850", "en mille huit cent cinquante"),
    ("1850 soldats", "mille huit cent cinquante soldats"),
    // Years in context (issue 12): French reads years and counts alike.
    ("l'hiver de 1907", "l'hiver de mille neuf cent sept"),
    ("le recensement de 1912 a compté", "le recensement de mille neuf cent douze a compté"),
    ("l'édition 1899 du livre", "l'édition mille huit cent quatre-vingt-dix-neuf du livre"),
    ("1907 kg", "mille neuf cent sept kilogrammes"),
    ("1921", "mille neuf cent vingt et un"),
    ("2010", "deux mille dix"),
    ("XIVe siècle", "quatorzième siècle"),
    ("le XIXe siècle", "le dix-neuvième siècle"),
    ("au XXIᵉ siècle", "au vingt et unième siècle"),
    ("François Ier", "François premier"),
    ("Louis XIV", "Louis quatorze"),
    ("Henri IV", "Henri quatre"),
    ("Napoléon III", "Napoléon trois"),
    ("Chapitre IV", "Chapitre quatre"),
    ("M. Dupont", "Monsieur Dupont"),
    ("Mme Bovary", "Madame Bovary"),
    ("Mlle Lenormand", "Mademoiselle Lenormand"),
    ("MM. Dupont et Durand", "Messieurs Dupont et Durand"),
    ("Dr Rieux", "Docteur Rieux"),
    ("3,5", "trois virgule cinq"),
    ("3,14", "trois virgule quatorze"),
    ("3,05", "trois virgule zéro cinq"),
    ("20 €", "vingt euros"),
    ("1 €", "un euro"),
    ("3,50 €", "trois euros cinquante"),
    ("$5 millions", "cinq millions de dollars"),
    ("20 %", "vingt pour cent"),
    ("5 km", "cinq kilomètres"),
    ("20 °C", "vingt degrés Celsius"),
    ("1er mars 1921", "premier mars mille neuf cent vingt et un"),
    ("la 1re fois", "la première fois"),
    ("le 2e jour", "le deuxième jour"),
    ("le 21e", "le vingt et unième"),
    ("le 3ème", "le troisième"),
    ("10h30", "dix heures trente"),
    ("10 h 30", "dix heures trente"),
    ("à 1 h", "à une heure"),
    ("10:30", "dix heures trente"),
    ("n° 3", "numéro trois"),
    ("p. 12", "page douze"),
    ("etc.", "et cetera."),
    ("c.-à-d. que", "c'est-à-dire que"),
    ("50 av. J.-C.", "cinquante avant Jésus-Christ."),
    ("1/2", "un demi"),
    ("3/4", "trois quarts"),
    ("2 1/2", "deux et demi"),
    ("1 000", "mille"),
    ("3 000 hommes", "trois mille hommes"),
    ("en 1850 300 hommes", "en mille huit cent cinquante trois cents hommes"),
    ("1\u{202F}000\u{202F}000", "un million"),
    ("80", "quatre-vingts"),
    ("81", "quatre-vingt-un"),
    ("71", "soixante et onze"),
    ("99", "quatre-vingt-dix-neuf"),
    ("200", "deux cents"),
    ("201", "deux cent un"),
    ("3-5", "trois à cinq"),
    ("Je suis là.", "Je suis là."),
    ("Le Ve arrondissement", "Le cinquième arrondissement"),
    ("Le roi", "Le roi"),
    ("Ce livre", "Ce livre"),
    ("De retour", "De retour"),
    ("Me voilà", "Me voilà"),
]

let germanCases: [(String, String)] = [
    ("z. B. Äpfel", "zum Beispiel Äpfel"),
    ("z.B. Birnen", "zum Beispiel Birnen"),
    ("d. h. nichts", "das heißt nichts"),
    ("usw.", "und so weiter."),
    ("Dr. Faust", "Doktor Faust"),
    ("Prof. Müller", "Professor Müller"),
    ("im Jahr 1850", "im Jahr achtzehnhundertfünfzig"),
    ("1850", "achtzehnhundertfünfzig"),
    ("1850 wurde er geboren", "achtzehnhundertfünfzig wurde er geboren"),
    ("1850 Soldaten", "tausendachthundertfünfzig Soldaten"),
    // Years in context (issue 12): nouns are capitalised, so a lower-case word after the number keeps a year.
    ("im Winter 1907", "im Winter neunzehnhundertsieben"),
    ("die Volkszählung von 1912", "die Volkszählung von neunzehnhundertzwölf"),
    ("die Ausgabe von 1899 ist selten", "die Ausgabe von achtzehnhundertneunundneunzig ist selten"),
    ("1907 Soldaten", "tausendneunhundertsieben Soldaten"),
    ("1907 kg", "tausendneunhundertsieben Kilogramm"),
    ("1907 €", "tausendneunhundertsieben Euro"),
    ("seit 1999", "seit neunzehnhundertneunundneunzig"),
    ("im Jahr 2010", "im Jahr zweitausendzehn"),
    ("von 1914 bis 1918", "von neunzehnhundertvierzehn bis neunzehnhundertachtzehn"),
    ("1914-1918", "neunzehnhundertvierzehn bis neunzehnhundertachtzehn"),
    ("3,5", "drei Komma fünf"),
    ("3,14", "drei Komma eins vier"),
    ("1.000", "tausend"),
    ("1.000.000", "eine Million"),
    ("21", "einundzwanzig"),
    ("101", "hunderteins"),
    ("1", "eins"),
    ("Ludwig XIV.", "Ludwig der Vierzehnte."),
    ("Ludwig XIV. war König", "Ludwig der Vierzehnte war König"),
    ("Ludwig XIV. König", "Ludwig der Vierzehnte. König"),
    ("Ludwig XIV. regierte lange", "Ludwig der Vierzehnte regierte lange"),
    ("Heinrich VIII", "Heinrich der Achte"),
    ("Friedrich II", "Friedrich der Zweite"),
    ("Kapitel IV", "Kapitel vier"),
    ("am 3. März 1921", "am dritten März neunzehnhunderteinundzwanzig"),
    ("3. März", "dritter März"),
    ("10:30 Uhr", "zehn Uhr dreißig Uhr"),
    ("20 €", "zwanzig Euro"),
    ("1 €", "ein Euro"),
    ("3,50 €", "drei Euro fünfzig"),
    ("5 km", "fünf Kilometer"),
    ("1 km", "ein Kilometer"),
    ("50 %", "fünfzig Prozent"),
    ("20 °C", "zwanzig Grad Celsius"),
    ("die 20er Jahre", "die zwanziger Jahre"),
    ("die 1920er", "die neunzehnhundertzwanziger"),
    ("Nr. 5", "Nummer fünf"),
    ("S. 12", "Seite zwölf"),
    ("S. Fischer", "S. Fischer"),
    ("St. Pauli", "Sankt Pauli"),
    ("1/2", "ein halb"),
    ("3/4", "drei Viertel"),
    ("1 1/2", "eineinhalb"),
    ("31.12.1999", "31.12.1999"),
    ("3-5", "drei bis fünf"),
    ("Ich bin hier.", "Ich bin hier."),
    ("DIE MIX", "DIE MIX"),
]

let spanishCases: [(String, String)] = [
    ("Sr. García", "señor García"),
    ("Sra. López", "señora López"),
    ("Srta. Ruiz", "señorita Ruiz"),
    ("Dr. Sánchez", "doctor Sánchez"),
    ("1850", "mil ochocientos cincuenta"),
    ("en 1850", "en mil ochocientos cincuenta"),
    ("1850 soldados", "mil ochocientos cincuenta soldados"),
    // Years in context (issue 12): Spanish reads years and counts alike.
    ("el invierno de 1907", "el invierno de mil novecientos siete"),
    ("el censo de 1912 contó", "el censo de mil novecientos doce contó"),
    ("1907 kg", "mil novecientos siete kilogramos"),
    ("2010", "dos mil diez"),
    ("Felipe II", "Felipe segundo"),
    ("Alfonso XIII", "Alfonso trece"),
    ("Isabel I", "Isabel primero"),
    ("siglo XIX", "siglo diecinueve"),
    ("Capítulo IV", "Capítulo cuatro"),
    ("3,5", "tres coma cinco"),
    ("3,14", "tres coma catorce"),
    ("1.000", "mil"),
    ("21.000", "veintiún mil"),
    ("21", "veintiuno"),
    ("21 €", "veintiún euros"),
    ("1 €", "un euro"),
    ("20 €", "veinte euros"),
    ("3,50 €", "tres euros cincuenta"),
    ("$5", "cinco dólares"),
    ("$5 millones", "cinco millones de dólares"),
    ("5 km", "cinco kilómetros"),
    ("1 km", "un kilómetro"),
    ("50 %", "cincuenta por ciento"),
    ("20 °C", "veinte grados Celsius"),
    ("1º", "primero"),
    ("1.º", "primero"),
    ("2ª", "segunda"),
    ("100", "cien"),
    ("101", "ciento uno"),
    ("500", "quinientos"),
    ("1.000.000", "un millón"),
    ("2.000.000", "dos millones"),
    ("31", "treinta y uno"),
    ("10:30", "diez y treinta"),
    ("pág. 3", "página tres"),
    ("etc.", "etcétera."),
    ("p. ej. esto", "por ejemplo esto"),
    ("EE. UU.", "Estados Unidos."),
    ("1/2", "un medio"),
    ("3-5", "tres a cinco"),
    ("3 de marzo de 1921", "tres de marzo de mil novecientos veintiuno"),
    ("Yo fui.", "Yo fui."),
    ("MIX", "MIX"),
]

@Suite("French, German, Spanish")
struct FrenchGermanSpanishTests {
    @Test(arguments: frenchCases)
    func french(input: String, expected: String) {
        #expect(TextNormalizer(language: "fr").normalize(input) == expected)
    }

    @Test(arguments: germanCases)
    func german(input: String, expected: String) {
        #expect(TextNormalizer(language: "de").normalize(input) == expected)
    }

    @Test(arguments: spanishCases)
    func spanish(input: String, expected: String) {
        #expect(TextNormalizer(language: "es").normalize(input) == expected)
    }

    @Test(arguments: ["fr-FR", "fr-CA", "de-AT", "de-CH", "es-ES", "es-MX", "pt-PT", "pt-BR", "it-IT", "it-CH"])
    func regionalTagsUseTheLanguageRules(tag: String) {
        let base = TextNormalizer(language: String(tag.prefix(2)))
        let regional = TextNormalizer(language: tag)
        #expect(regional.normalize("1850 3,5 20 €") == base.normalize("1850 3,5 20 €"))
        #expect(regional.normalize("1850") != "1850")
    }

    @Test func frenchHeadingNumeral() {
        #expect(TextNormalizer(language: "fr").normalize("IV. La tempête", context: .heading) == "Quatre. La tempête")
    }
}
