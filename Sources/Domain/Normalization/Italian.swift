// Italian tables.

extension LanguageData {
    static func italian() -> LanguageData {
        var data = LanguageData()
        data.abbreviations = [
            .title("Sig.", "signor"), .word("Sig.ra", "signora"), .word("Sig.na", "signorina"),
            .word("Sigg.", "signori"), .title("Dott.", "dottor"), .word("Dott.ssa", "dottoressa"),
            .word("Dr.", "dottor"), .title("Prof.", "professor"), .word("Prof.ssa", "professoressa"),
            .title("Avv.", "avvocato"), .title("Ing.", "ingegner"), .title("On.", "onorevole"),
            .title("Mons.", "monsignor"), .word("Egr.", "egregio"), .word("Gent.mo", "gentilissimo"),
            .word("Gent.ma", "gentilissima"),
            .numbered("p.", "pagina"), .numbered("pp.", "pagine"), .numbered("pag.", "pagina"),
            .numbered("pagg.", "pagine"), .numbered("cap.", "capitolo", cue: .ordinal),
            .numbered("capp.", "capitoli"), .numbered("vol.", "volume", cue: .ordinal),
            .numbered("voll.", "volumi"), .numbered("sec.", "secolo", cue: .ordinal), .numbered("secc.", "secoli"),
            .numbered("art.", "articolo"), .numbered("artt.", "articoli"), .numbered("fig.", "figura"),
            .counted("n.", "numero"), .counted("nr.", "numero"), .counted("N.", "numero"),
            .counted("n°", "numero"), .counted("nº", "numero"),
            .numbered("ca.", "circa", cue: .year), .numbered("c.", "circa", cue: .year),
            .final("ecc.", "eccetera"), .final("etc.", "eccetera"), .word("p.es.", "per esempio"),
            .word("p. es.", "per esempio"), .word("ad es.", "ad esempio"), .word("cfr.", "confronta"),
            .final("a.C.", "avanti Cristo"), .final("d.C.", "dopo Cristo"),
            .final("a. C.", "avanti Cristo"), .final("d. C.", "dopo Cristo"),
        ]
        func unit(_ one: String, _ many: String, feminine: Bool = false) -> UnitName {
            UnitName(singular: one, plural: many, feminine: feminine)
        }
        data.units = [
            "km": unit("chilometro", "chilometri"), "m": unit("metro", "metri"),
            "cm": unit("centimetro", "centimetri"), "mm": unit("millimetro", "millimetri"),
            "kg": unit("chilogrammo", "chilogrammi"), "g": unit("grammo", "grammi"),
            "mg": unit("milligrammo", "milligrammi"), "t": unit("tonnellata", "tonnellate", feminine: true),
            "l": unit("litro", "litri"), "L": unit("litro", "litri"), "ml": unit("millilitro", "millilitri"),
            "mL": unit("millilitro", "millilitri"), "km/h": unit("chilometro orario", "chilometri orari"),
            "°C": unit("grado Celsius", "gradi Celsius"), "°F": unit("grado Fahrenheit", "gradi Fahrenheit"),
            "℃": unit("grado Celsius", "gradi Celsius"), "°": unit("grado", "gradi"),
            "%": unit("per cento", "per cento"),
        ]
        data.currencies = [
            "€": CurrencyName(singular: "euro", plural: "euro", minorSingular: "centesimo", minorPlural: "centesimi"),
            "$": CurrencyName(
                singular: "dollaro", plural: "dollari", minorSingular: "centesimo", minorPlural: "centesimi"),
            "£": CurrencyName(
                singular: "sterlina", plural: "sterline", minorSingular: "penny", minorPlural: "pence", feminine: true),
        ]
        data.cardinalCues = [
            "Articolo", "Figura", "Tavola", "Numero", "Pagina", "Tabella", "articolo", "figura", "tavola", "pagina",
        ]
        data.ordinalCues = [
            "Capitolo", "Libro", "Tomo", "Volume", "Atto", "Canto", "Titolo", "Secolo", "Salmo", "Sonetto",
            "Episodio", "Quadro", "capitolo", "libro", "tomo", "volume", "atto", "canto", "secolo",
        ]
        data.feminineOrdinalCues = [
            "Parte", "Scena", "Sezione", "Lezione", "Lettera", "Giornata", "Novella", "Stagione", "Appendice",
            "parte", "scena", "sezione", "giornata",
        ]
        data.ordinalBeforeWords = ["secolo", "secoli", "Secolo"]
        data.months = [
            "gennaio": 1, "febbraio": 2, "marzo": 3, "aprile": 4, "maggio": 5, "giugno": 6, "luglio": 7,
            "agosto": 8, "settembre": 9, "ottobre": 10, "novembre": 11, "dicembre": 12,
        ]
        data.monthAbbreviations = [
            "gen": "gennaio", "feb": "febbraio", "febb": "febbraio", "mar": "marzo", "apr": "aprile",
            "mag": "maggio", "giu": "giugno", "lug": "luglio", "ago": "agosto", "set": "settembre",
            "sett": "settembre", "ott": "ottobre", "nov": "novembre", "dic": "dicembre",
        ]
        data.regnalNames = [
            "Luigi", "Carlo", "Enrico", "Federico", "Filippo", "Francesco", "Giovanni", "Giuseppe", "Vittorio",
            "Emanuele", "Umberto", "Pio", "Leone", "Gregorio", "Benedetto", "Innocenzo", "Clemente", "Urbano",
            "Bonifacio", "Paolo", "Alessandro", "Niccolò", "Nicola", "Napoleone", "Elisabetta", "Maria", "Caterina",
            "Ferdinando", "Guglielmo", "Giorgio", "Edoardo", "Riccardo", "Pietro", "Sisto", "Adriano", "Giulio",
            "Martino", "Stefano", "Ottone", "Rodolfo", "Leopoldo", "Massimiliano", "Giovanna", "Isabella",
        ]
        data.feminineNames = ["Elisabetta", "Maria", "Caterina", "Giovanna", "Isabella", "Vittoria", "Anna"]
        data.regnalTitles = ["re", "regina", "papa", "Papa", "imperatore", "imperatrice", "zar", "principe", "duca"]
        data.scaleWords = ["mila", "milione", "milioni", "miliardo", "miliardi"]
        data.scaleNouns = ["milione", "milioni", "miliardo", "miliardi"]
        data.scaleNounLink = "di"
        return data
    }
}
