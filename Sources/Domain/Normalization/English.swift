// English tables. Spellings are British ("kilometres"); en-US swaps "-metre"/"-litre" for "-meter"/"-liter".

extension LanguageData {
    static func english(american: Bool) -> LanguageData {
        var data = LanguageData()
        data.abbreviations = [
            .word("Mr.", "Mister"), .word("Mrs.", "Missus"), .word("Ms.", "Miz"), .word("Messrs.", "Messieurs"),
            .word("Dr.", "Doctor"), .word("Prof.", "Professor"), .word("Rev.", "Reverend"),
            .word("Revd.", "Reverend"), .word("Hon.", "Honourable"), .word("Capt.", "Captain"),
            .word("Col.", "Colonel"), .word("Lt.", "Lieutenant"), .word("Sgt.", "Sergeant"),
            .word("Cpl.", "Corporal"), .word("Mt.", "Mount"), .word("Ft.", "Fort"),
            .final("Jr.", "Junior"), .final("Sr.", "Senior"), .final("Ave.", "Avenue"), .final("Rd.", "Road"),
            .final("Blvd.", "Boulevard"),
            Abbreviation(written: "St.", spoken: "Saint", condition: .saintOrStreet),
            .numbered("p.", "page"), .numbered("pp.", "pages"),
            .numbered("ch.", "chapter"), .numbered("Ch.", "chapter"), .numbered("chap.", "chapter"),
            .numbered("Chap.", "chapter"), .numbered("vol.", "volume"), .numbered("Vol.", "volume"),
            .numbered("vols.", "volumes"), .numbered("Vols.", "volumes"),
            .counted("no.", "number"), .counted("No.", "number"), .counted("nos.", "numbers"),
            .counted("Nos.", "numbers"), .numbered("fig.", "figure"), .numbered("Fig.", "figure"),
            .numbered("figs.", "figures"), .numbered("Figs.", "figures"),
            .numbered("c.", "circa", cue: .year), .numbered("ca.", "circa", cue: .year),
            .word("e.g.", "for example"), .word("i.e.", "that is"), .word("viz.", "namely"),
            .word("cf.", "compare"), .word("vs.", "versus"), .word("approx.", "approximately"),
            .final("etc.", "et cetera"), .final("et al.", "et al"), .final("a.m.", "a m"), .final("p.m.", "p m"),
            .final("A.M.", "a m"), .final("P.M.", "p m"),
            .word("WWI", "World War One"), .word("WWII", "World War Two"), .word("WW1", "World War One"),
            .word("WW2", "World War Two"),
        ]
        let metre = american ? "meter" : "metre", litre = american ? "liter" : "litre"
        func unit(_ one: String, _ many: String? = nil) -> UnitName {
            UnitName(singular: one, plural: many ?? one + "s")
        }
        data.units = [
            "km": unit("kilo" + metre), "m": unit(metre), "cm": unit("centi" + metre), "mm": unit("milli" + metre),
            "kg": unit("kilogram"), "g": unit("gram"), "mg": unit("milligram"), "t": unit("tonne"),
            "l": unit(litre), "L": unit(litre), "ml": unit("milli" + litre), "mL": unit("milli" + litre),
            "mi": unit("mile"), "ft": unit("foot", "feet"), "yd": unit("yard"), "yds": unit("yard"),
            "lb": unit("pound"), "lbs": unit("pound"), "oz": unit("ounce"),
            "mph": unit("mile per hour", "miles per hour"),
            "km/h": unit("kilo\(metre) per hour", "kilo\(metre)s per hour"),
            "kph": unit("kilo\(metre) per hour", "kilo\(metre)s per hour"),
            "min": unit("minute"), "hr": unit("hour"), "hrs": unit("hour"), "sec": unit("second"),
            "°C": unit("degree Celsius", "degrees Celsius"), "°F": unit("degree Fahrenheit", "degrees Fahrenheit"),
            "℃": unit("degree Celsius", "degrees Celsius"), "℉": unit("degree Fahrenheit", "degrees Fahrenheit"),
            "°": unit("degree"), "%": unit("percent", "percent"),
        ]
        data.currencies = [
            "$": CurrencyName(singular: "dollar", plural: "dollars", minorSingular: "cent", minorPlural: "cents"),
            "£": CurrencyName(singular: "pound", plural: "pounds", minorSingular: "penny", minorPlural: "pence"),
            "€": CurrencyName(singular: "euro", plural: "euros", minorSingular: "cent", minorPlural: "cents"),
            "¥": CurrencyName(singular: "yen", plural: "yen", minorSingular: "sen", minorPlural: "sen"),
        ]
        data.cardinalCues = [
            "Chapter", "Part", "Book", "Volume", "Act", "Scene", "Section", "Appendix", "Canto", "Article", "Psalm",
            "Phase", "Stage", "Level", "Class", "Type", "War", "Round", "Series", "Season", "Episode", "Title",
            "Figure", "Plate", "Table", "Lecture", "Stave", "Sonnet", "Letter", "Epistle", "Number", "Issue", "Vatican",
        ]
        data.yearCues = [
            "in", "since", "from", "until", "till", "before", "after", "circa", "year", "early", "late", "mid",
            "spring", "summer", "autumn", "fall", "winter", "between", "during", "born", "died", "anno",
        ]
        data.yearLinks = ["and", "or", "to", "through", "till", "until", "-", "–", "—", "/"]
        data.yearFollowers = [
            "was", "were", "is", "had", "has", "saw", "brought", "became", "began", "ended", "came", "marked",
            "the", "a", "an", "and", "or", "but", "when", "while", "where", "he", "she", "it", "they", "we", "there",
            "that", "this", "his", "her", "their", "its", "as", "after", "before", "until", "with", "to", "in",
            "on", "at", "for", "from", "by", "of",
        ]
        data.irregularPlurals = [
            "men", "women", "people", "children", "feet", "teeth", "mice", "geese", "sheep", "fish", "cattle",
            "deer", "oxen", "folk", "head", "personnel", "infantry", "cavalry", "dead", "wounded",
        ]
        data.singularsInS = [
            "series", "species", "news", "atlas", "canvas", "gas", "lens", "chaos", "means", "christmas", "physics",
            "mathematics", "politics", "economics", "summons", "whereabouts", "headquarters", "crossroads",
        ]
        data.quantityModifiers = [
            "more", "other", "new", "old", "young", "additional", "extra", "different", "separate", "individual",
            "small", "large", "armed", "known", "registered", "surviving", "extant", "native", "foreign", "local",
        ]
        data.eraWords = ["BC", "AD", "BCE", "CE", "B.C.", "A.D.", "B.C.E.", "C.E."]
        data.months = [
            "January": 1, "February": 2, "March": 3, "April": 4, "May": 5, "June": 6, "July": 7, "August": 8,
            "September": 9, "October": 10, "November": 11, "December": 12,
        ]
        data.monthAbbreviations = [
            "Jan": "January", "Feb": "February", "Mar": "March", "Apr": "April", "Jun": "June", "Jul": "July",
            "Aug": "August", "Sep": "September", "Sept": "September", "Oct": "October", "Nov": "November",
            "Dec": "December",
        ]
        data.regnalNames = [
            "Henry", "Edward", "Richard", "George", "William", "James", "Charles", "John", "Louis", "Elizabeth",
            "Mary", "Anne", "Victoria", "Philip", "Peter", "Paul", "Pius", "Leo", "Gregory", "Benedict", "Innocent",
            "Clement", "Urban", "Boniface", "Alexander", "Nicholas", "Frederick", "Francis", "Ferdinand", "Napoleon",
            "Catherine", "Ivan", "Otto", "Constantine", "Rudolf", "Leopold", "Gustav", "Gustavus", "Christian",
            "Sixtus", "Adrian", "Julius", "Martin", "Stephen", "Alfonso", "Isabella", "Charlemagne",
            "David", "Robert", "Harold", "Wilhelm", "Ludwig", "Franz", "Karl", "Carlos", "Juan", "Felipe", "Pedro",
        ]
        data.regnalTitles = [
            "King", "Queen", "Pope", "Emperor", "Empress", "Tsar", "Czar", "Tsarina", "Kaiser", "Prince",
            "Princess", "Duke", "Sultan", "Pharaoh", "Shah", "Saint",
        ]
        data.scaleWords = ["thousand", "million", "billion", "trillion"]
        data.wordsSpelledInCapitals = ["IT", "US"]
        data.wordsSpelledInCapitalsBeforeAStop = ["IT"]
        return data
    }
}
