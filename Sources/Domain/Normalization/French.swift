// French tables.

extension LanguageData {
    static func french() -> LanguageData {
        var data = LanguageData()
        data.abbreviations = [
            .title("M.", "Monsieur"), .title("MM.", "Messieurs"), .word("Mme", "Madame"), .word("Mmes", "Mesdames"),
            .word("Mlle", "Mademoiselle"), .word("Mlles", "Mesdemoiselles"), .word("Mgr", "Monseigneur"),
            .title("Dr", "Docteur"), .title("Dr.", "Docteur"), .title("Pr", "Professeur"), .title("St", "Saint"),
            .title("Ste", "Sainte"), .title("St.", "Saint"), .title("Ste.", "Sainte"),
            .numbered("p.", "page"), .numbered("pp.", "pages"), .numbered("chap.", "chapitre"),
            .numbered("vol.", "volume"), .numbered("t.", "tome"), .numbered("fig.", "figure"),
            .counted("n°", "numéro"), .counted("N°", "numéro"), .counted("no", "numéro"),
            .numbered("env.", "environ"), .numbered("art.", "article"),
            .final("etc.", "et cetera"), .word("c.-à-d.", "c'est-à-dire"), .word("c-à-d", "c'est-à-dire"),
            .word("cf.", "confer"), .word("p. ex.", "par exemple"), .final("av. J.-C.", "avant Jésus-Christ"),
            .final("apr. J.-C.", "après Jésus-Christ"), .final("J.-C.", "Jésus-Christ"), .word("bd", "boulevard"),
            .word("Bd", "boulevard"), .word("av.", "avenue"),
        ]
        func unit(_ one: String, _ many: String? = nil) -> UnitName {
            UnitName(singular: one, plural: many ?? one + "s")
        }
        data.units = [
            "km": unit("kilomètre"), "m": unit("mètre"), "cm": unit("centimètre"), "mm": unit("millimètre"),
            "kg": unit("kilogramme"), "g": unit("gramme"), "mg": unit("milligramme"), "t": unit("tonne"),
            "l": unit("litre"), "L": unit("litre"), "ml": unit("millilitre"), "mL": unit("millilitre"),
            "km/h": unit("kilomètre à l'heure", "kilomètres à l'heure"),
            "°C": unit("degré Celsius", "degrés Celsius"), "°F": unit("degré Fahrenheit", "degrés Fahrenheit"),
            "℃": unit("degré Celsius", "degrés Celsius"), "°": unit("degré"), "%": unit("pour cent", "pour cent"),
        ]
        data.currencies = [
            "€": CurrencyName(singular: "euro", plural: "euros", minorSingular: "centime", minorPlural: "centimes"),
            "$": CurrencyName(singular: "dollar", plural: "dollars", minorSingular: "cent", minorPlural: "cents"),
            "£": CurrencyName(singular: "livre", plural: "livres", minorSingular: "penny", minorPlural: "pence"),
        ]
        data.cardinalCues = [
            "Chapitre", "Partie", "Livre", "Tome", "Acte", "Scène", "Volume", "Section", "Article", "Annexe", "Chant",
            "Titre", "Leçon", "Lettre", "Épisode", "Saison", "Planche", "Figure", "Tableau", "Numéro",
            "chapitre", "partie", "livre", "tome", "acte", "scène", "volume", "section", "article", "annexe",
        ]
        data.months = [
            "janvier": 1, "février": 2, "mars": 3, "avril": 4, "mai": 5, "juin": 6, "juillet": 7, "août": 8,
            "septembre": 9, "octobre": 10, "novembre": 11, "décembre": 12,
        ]
        data.monthAbbreviations = [
            "janv": "janvier", "févr": "février", "fév": "février", "avr": "avril", "juil": "juillet",
            "sept": "septembre", "oct": "octobre", "nov": "novembre", "déc": "décembre",
        ]
        data.regnalNames = [
            "Henri", "Louis", "François", "Charles", "Philippe", "Jean", "Napoléon", "Pie", "Léon", "Grégoire",
            "Benoît", "Innocent", "Clément", "Urbain", "Boniface", "Alexandre", "Nicolas", "Frédéric", "Élisabeth",
            "Elizabeth", "Marie", "Victoria", "Guillaume", "Édouard", "Richard", "Jacques", "Paul", "Pierre",
            "Catherine", "Ferdinand", "Isabelle", "Jean-Paul", "Othon", "Rodolphe", "Léopold",
        ]
        data.regnalTitles = ["roi", "reine", "pape", "empereur", "impératrice", "tsar", "prince", "duc", "Saint"]
        data.scaleWords = ["mille", "million", "millions", "milliard", "milliards"]
        data.scaleNouns = ["million", "millions", "milliard", "milliards"]
        data.scaleNounLink = "de"
        return data
    }
}
