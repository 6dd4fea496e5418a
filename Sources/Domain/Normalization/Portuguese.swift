// Portuguese tables. European spelling by default ("quilómetro", "cêntimo"); pt-BR swaps the few words that
// differ ("quilômetro", "centavo").

extension LanguageData {
    static func portuguese(brazilian: Bool) -> LanguageData {
        var data = LanguageData()
        data.abbreviations = [
            .word("Sr.", "senhor"), .word("Sra.", "senhora"), .word("Srta.", "senhorita"),
            .word("Srs.", "senhores"), .word("Sras.", "senhoras"), .word("Dr.", "doutor"), .word("Dra.", "doutora"),
            .word("Drs.", "doutores"), .word("Prof.", "professor"), .word("Profa.", "professora"),
            .word("Profª.", "professora"), .word("Exmo.", "excelentíssimo"), .word("Exma.", "excelentíssima"),
            .word("V. Exa.", "Vossa Excelência"), .word("Sto.", "santo"), .word("Sta.", "santa"),
            .word("Av.", "avenida"),
            .numbered("p.", "página"), .numbered("pp.", "páginas"), .numbered("pág.", "página"),
            .numbered("págs.", "páginas"), .numbered("cap.", "capítulo", cue: .ordinal),
            .numbered("caps.", "capítulos"), .numbered("vol.", "volume", cue: .ordinal),
            .numbered("vols.", "volumes"), .numbered("séc.", "século", cue: .ordinal),
            .numbered("sécs.", "séculos"), .numbered("art.", "artigo", cue: .ordinal),
            .numbered("fig.", "figura"), .counted("n.º", "número"), .counted("nº", "número"),
            .counted("N.º", "número"), .counted("Nº", "número"), .counted("n.o", "número"),
            .numbered("c.", "cerca de", cue: .year), .numbered("ca.", "cerca de", cue: .year),
            .final("etc.", "etcétera"), .word("p. ex.", "por exemplo"), .word("p.ex.", "por exemplo"),
            .word("i.e.", "isto é"), .word("cf.", "confira"), .word("aprox.", "aproximadamente"),
            .final("a.C.", "antes de Cristo"), .final("d.C.", "depois de Cristo"),
            .final("a. C.", "antes de Cristo"), .final("d. C.", "depois de Cristo"),
        ]
        let kilometre = brazilian ? "quilômetro" : "quilómetro"
        func unit(_ one: String, _ many: String? = nil, feminine: Bool = false) -> UnitName {
            UnitName(singular: one, plural: many ?? one + "s", feminine: feminine)
        }
        data.units = [
            "km": unit(kilometre), "m": unit("metro"), "cm": unit("centímetro"), "mm": unit("milímetro"),
            "kg": unit("quilograma"), "g": unit("grama"), "mg": unit("miligrama"),
            "t": unit("tonelada", feminine: true), "l": unit("litro"), "L": unit("litro"), "ml": unit("mililitro"),
            "mL": unit("mililitro"), "km/h": unit(kilometre + " por hora", kilometre + "s por hora"),
            "°C": unit("grau Celsius", "graus Celsius"), "°F": unit("grau Fahrenheit", "graus Fahrenheit"),
            "℃": unit("grau Celsius", "graus Celsius"), "°": unit("grau"), "%": unit("por cento", "por cento"),
        ]
        let cent = brazilian ? "centavo" : "cêntimo"
        data.currencies = [
            "€": CurrencyName(singular: "euro", plural: "euros", minorSingular: cent, minorPlural: cent + "s"),
            "R$": CurrencyName(singular: "real", plural: "reais", minorSingular: "centavo", minorPlural: "centavos"),
            "$": CurrencyName(singular: "dólar", plural: "dólares", minorSingular: cent, minorPlural: cent + "s"),
            "US$": CurrencyName(singular: "dólar", plural: "dólares", minorSingular: cent, minorPlural: cent + "s"),
            "£": CurrencyName(
                singular: "libra", plural: "libras", minorSingular: "péni", minorPlural: "pence", feminine: true),
        ]
        data.cardinalCues = [
            "Figura", "Página", "Número", "Quadro", "Tabela", "Estampa", "figura", "página", "número",
        ]
        data.ordinalCues = [
            "Capítulo", "Livro", "Tomo", "Volume", "Ato", "Acto", "Canto", "Artigo", "Anexo", "Título", "Século",
            "Salmo", "Soneto", "Episódio", "Poema", "capítulo", "livro", "tomo", "volume", "ato", "acto", "canto",
            "artigo", "século",
        ]
        data.feminineOrdinalCues = [
            "Parte", "Cena", "Secção", "Seção", "Lição", "Carta", "Jornada", "Temporada", "parte", "cena", "secção",
            "seção",
        ]
        data.months = [
            "janeiro": 1, "fevereiro": 2, "março": 3, "abril": 4, "maio": 5, "junho": 6, "julho": 7, "agosto": 8,
            "setembro": 9, "outubro": 10, "novembro": 11, "dezembro": 12,
        ]
        data.monthAbbreviations = [
            "jan": "janeiro", "fev": "fevereiro", "mar": "março", "abr": "abril", "mai": "maio", "jun": "junho",
            "jul": "julho", "ago": "agosto", "set": "setembro", "out": "outubro", "nov": "novembro",
            "dez": "dezembro",
        ]
        data.dateLink = "de"
        data.regnalNames = [
            "Pedro", "João", "Afonso", "Manuel", "Sebastião", "José", "Maria", "Luís", "Carlos", "Filipe", "Henrique",
            "Fernando", "Duarte", "Dinis", "Sancho", "Teresa", "Isabel", "Leão", "Pio", "Gregório", "Bento",
            "Inocêncio", "Clemente", "Urbano", "Paulo", "Francisco", "Napoleão", "Guilherme", "Jorge", "Eduardo",
            "Ricardo", "Catarina", "Alexandre", "Nicolau", "Frederico", "Leopoldo", "Miguel",
        ]
        data.feminineNames = ["Maria", "Teresa", "Isabel", "Catarina", "Leonor", "Beatriz", "Vitória", "Ana"]
        data.regnalTitles = ["rei", "rainha", "papa", "imperador", "imperatriz", "czar", "príncipe", "duque", "Dom"]
        data.scaleWords = ["mil", "milhão", "milhões", "bilião", "biliões", "bilhão", "bilhões"]
        data.scaleNouns = ["milhão", "milhões", "bilião", "biliões", "bilhão", "bilhões"]
        data.scaleNounLink = "de"
        return data
    }
}
