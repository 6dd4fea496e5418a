// Spanish tables.

extension LanguageData {
    static func spanish() -> LanguageData {
        var data = LanguageData()
        data.abbreviations = [
            .word("Sr.", "señor"), .word("Sra.", "señora"), .word("Srta.", "señorita"), .word("Sres.", "señores"),
            .word("Sras.", "señoras"), .word("Dr.", "doctor"), .word("Dra.", "doctora"), .word("Dña.", "doña"),
            .word("Ud.", "usted"), .word("Uds.", "ustedes"), .word("Vd.", "usted"), .word("Vds.", "ustedes"),
            .word("Sto.", "santo"), .word("Sta.", "santa"), .word("Avda.", "avenida"), .word("Av.", "avenida"),
            .numbered("pág.", "página"), .numbered("págs.", "páginas"), .numbered("p.", "página"),
            .numbered("cap.", "capítulo"), .numbered("vol.", "volumen"), .numbered("núm.", "número"),
            .numbered("n.º", "número"), .numbered("nº", "número"), .numbered("fig.", "figura"),
            .numbered("h.", "hacia", cue: .year), .numbered("ca.", "circa", cue: .year),
            .final("etc.", "etcétera"), .word("p. ej.", "por ejemplo"), .word("aprox.", "aproximadamente"),
            .final("EE. UU.", "Estados Unidos"), .final("EE.UU.", "Estados Unidos"),
            .final("a. C.", "antes de Cristo"), .final("d. C.", "después de Cristo"),
            .final("a.C.", "antes de Cristo"), .final("d.C.", "después de Cristo"),
        ]
        func unit(_ one: String, _ many: String? = nil) -> UnitName {
            UnitName(singular: one, plural: many ?? one + "s")
        }
        data.units = [
            "km": unit("kilómetro"), "m": unit("metro"), "cm": unit("centímetro"), "mm": unit("milímetro"),
            "kg": unit("kilogramo"), "g": unit("gramo"), "mg": unit("miligramo"), "t": unit("tonelada"),
            "l": unit("litro"), "L": unit("litro"), "ml": unit("mililitro"), "mL": unit("mililitro"),
            "km/h": unit("kilómetro por hora", "kilómetros por hora"),
            "°C": unit("grado Celsius", "grados Celsius"), "°F": unit("grado Fahrenheit", "grados Fahrenheit"),
            "℃": unit("grado Celsius", "grados Celsius"), "°": unit("grado"), "%": unit("por ciento", "por ciento"),
        ]
        data.currencies = [
            "€": CurrencyName(singular: "euro", plural: "euros", minorSingular: "céntimo", minorPlural: "céntimos"),
            "$": CurrencyName(singular: "dólar", plural: "dólares", minorSingular: "centavo", minorPlural: "centavos"),
            "£": CurrencyName(singular: "libra", plural: "libras", minorSingular: "penique", minorPlural: "peniques"),
        ]
        data.cardinalCues = [
            "Capítulo", "Parte", "Libro", "Tomo", "Acto", "Escena", "Volumen", "Sección", "Artículo", "Anexo", "Canto",
            "Título", "Lección", "Carta", "Episodio", "Temporada", "Lámina", "Figura", "siglo", "Siglo",
            "capítulo", "parte", "libro", "tomo", "acto", "escena",
        ]
        data.months = [
            "enero": 1, "febrero": 2, "marzo": 3, "abril": 4, "mayo": 5, "junio": 6, "julio": 7, "agosto": 8,
            "septiembre": 9, "setiembre": 9, "octubre": 10, "noviembre": 11, "diciembre": 12,
        ]
        data.monthAbbreviations = [
            "ene": "enero", "feb": "febrero", "mar": "marzo", "abr": "abril", "may": "mayo", "jun": "junio",
            "jul": "julio", "ago": "agosto", "sep": "septiembre", "sept": "septiembre", "set": "septiembre",
            "oct": "octubre", "nov": "noviembre", "dic": "diciembre",
        ]
        data.dateLink = "de"
        data.regnalNames = [
            "Felipe", "Carlos", "Fernando", "Alfonso", "Juan", "Isabel", "Enrique", "Pedro", "Jaime", "Sancho",
            "Luis", "Pío", "León", "Gregorio", "Benedicto", "Inocencio", "Clemente", "Urbano", "Pablo", "Juana",
            "Francisco", "Napoleón", "Guillermo", "Ramiro", "García", "Ordoño", "Bermudo", "Alejandro", "Nicolás",
            "Federico", "Catalina",
        ]
        data.regnalTitles = ["rey", "reina", "papa", "emperador", "emperatriz", "zar", "príncipe", "duque"]
        data.scaleWords = ["mil", "millón", "millones", "billón", "billones"]
        data.scaleNouns = ["millón", "millones", "billón", "billones"]
        data.scaleNounLink = "de"
        return data
    }
}
