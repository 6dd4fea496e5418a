// German tables.

extension LanguageData {
    static func german() -> LanguageData {
        var data = LanguageData()
        data.abbreviations = [
            .word("z. B.", "zum Beispiel"), .word("z.B.", "zum Beispiel"), .word("d. h.", "das heißt"),
            .word("d.h.", "das heißt"), .final("u. a.", "unter anderem"), .final("u.a.", "unter anderem"),
            .final("usw.", "und so weiter"), .word("bzw.", "beziehungsweise"), .word("vgl.", "vergleiche"),
            .word("Vgl.", "vergleiche"), .final("etc.", "et cetera"), .word("evtl.", "eventuell"),
            .word("ggf.", "gegebenenfalls"), .final("z. T.", "zum Teil"), .final("z.T.", "zum Teil"),
            .final("u. U.", "unter Umständen"), .final("o. Ä.", "oder Ähnliches"), .word("sog.", "sogenannt"),
            .word("inkl.", "inklusive"), .word("bspw.", "beispielsweise"),
            .final("v. Chr.", "vor Christus"), .final("n. Chr.", "nach Christus"),
            .word("Dr.", "Doktor"), .word("Prof.", "Professor"), .title("Hr.", "Herr"), .title("Hrn.", "Herrn"),
            .title("Fr.", "Frau"), .title("St.", "Sankt"), .final("Str.", "Straße"), .final("str.", "straße"),
            .numbered("Nr.", "Nummer"), .numbered("S.", "Seite"), .numbered("Kap.", "Kapitel"),
            .numbered("Bd.", "Band"), .numbered("Abb.", "Abbildung"), .numbered("Jh.", "Jahrhundert"),
            .numbered("ca.", "circa", cue: .year),
        ]
        func unit(_ one: String, _ many: String? = nil) -> UnitName { UnitName(singular: one, plural: many ?? one) }
        data.units = [
            "km": unit("Kilometer"), "m": unit("Meter"), "cm": unit("Zentimeter"), "mm": unit("Millimeter"),
            "kg": unit("Kilogramm"), "g": unit("Gramm"), "mg": unit("Milligramm"), "t": unit("Tonne", "Tonnen"),
            "l": unit("Liter"), "L": unit("Liter"), "ml": unit("Milliliter"), "mL": unit("Milliliter"),
            "km/h": unit("Kilometer pro Stunde"), "°C": unit("Grad Celsius"), "°F": unit("Grad Fahrenheit"),
            "℃": unit("Grad Celsius"), "°": unit("Grad"), "%": unit("Prozent"),
        ]
        data.currencies = [
            "€": CurrencyName(singular: "Euro", plural: "Euro", minorSingular: "Cent", minorPlural: "Cent"),
            "$": CurrencyName(singular: "Dollar", plural: "Dollar", minorSingular: "Cent", minorPlural: "Cent"),
            "£": CurrencyName(singular: "Pfund", plural: "Pfund", minorSingular: "Penny", minorPlural: "Pence"),
        ]
        data.cardinalCues = [
            "Kapitel", "Teil", "Buch", "Band", "Akt", "Aufzug", "Szene", "Abschnitt", "Artikel", "Anhang", "Gesang",
            "Brief", "Lektion", "Folge", "Staffel", "Tafel", "Abbildung", "Nummer",
        ]
        data.yearCues = [
            "im", "seit", "ab", "um", "anno", "circa", "jahr", "jahre", "jahres", "jahren", "zwischen", "anfang",
            "ende", "mitte", "frühjahr", "sommer", "herbst", "winter", "geboren", "gestorben",
        ]
        data.yearLinks = ["und", "bis", "oder", "-", "–", "—", "/"]
        data.eraWords = ["v. Chr.", "n. Chr."]
        data.months = [
            "Januar": 1, "Jänner": 1, "Februar": 2, "März": 3, "April": 4, "Mai": 5, "Juni": 6, "Juli": 7,
            "August": 8, "September": 9, "Oktober": 10, "November": 11, "Dezember": 12,
        ]
        data.monthAbbreviations = [
            "Jan": "Januar", "Feb": "Februar", "Febr": "Februar", "Mrz": "März", "Apr": "April", "Jun": "Juni",
            "Jul": "Juli", "Aug": "August", "Sep": "September", "Sept": "September", "Okt": "Oktober",
            "Nov": "November", "Dez": "Dezember",
        ]
        data.regnalNames = [
            "Ludwig", "Heinrich", "Karl", "Friedrich", "Wilhelm", "Otto", "Konrad", "Rudolf", "Franz", "Leopold",
            "Maximilian", "Joseph", "Josef", "Pius", "Leo", "Gregor", "Benedikt", "Johannes", "Paul", "Elisabeth",
            "Maria", "Katharina", "Peter", "Philipp", "Georg", "Eduard", "Richard", "Jakob", "Napoleon", "Innozenz",
            "Klemens", "Alexander", "Nikolaus", "Ferdinand", "Sigismund", "Albrecht", "Johann", "Gustav",
        ]
        data.regnalTitles = ["König", "Königin", "Papst", "Kaiser", "Kaiserin", "Zar", "Prinz", "Herzog", "Fürst"]
        data.scaleWords = ["Tausend", "Million", "Millionen", "Milliarde", "Milliarden", "Mio.", "Mrd."]
        return data
    }
}
