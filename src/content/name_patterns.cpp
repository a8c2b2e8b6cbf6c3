#include "content/name_patterns.hpp"

namespace hschool::content {

namespace {

constexpr int kHighestSchoolNumber = 250;

WordList school_numbers(const std::string& prefix) {
    WordList out;
    for (int n = 1; n <= kHighestSchoolNumber; ++n) out.push_back(prefix + std::to_string(n));
    return out;
}

// Russian: "Гимназия №14", "Лицей «Северная»", "Лицей №2 имени Ломоносова", "Школа имени А. П. Чехова".
const std::vector<NamePattern>& russian_patterns() {
    static const WordList kinds{"Школа", "Средняя школа", "Гимназия", "Лицей", "Центр образования",
                                "Физико-математический лицей", "Лингвистическая гимназия", "Президентский лицей",
                                "Инженерная школа", "Классическая гимназия"};
    static const WordList numbers = school_numbers(" №");
    static const WordList quoted{
        " «Радуга»", " «Северная»", " «Созвездие»", " «Эрудит»", " «Перспектива»", " «Открытие»", " «Гармония»",
        " «Парус»", " «Истоки»", " «Альтаир»", " «Вектор»", " «Горизонт»", " «Интеллект»", " «Солнечная»",
        " «Сириус»", " «Ступени»", " «Полярная звезда»", " «Алые паруса»", " «Дружба»", " «Гелиос»",
        " «Ориентир»", " «Лидер»", " «Пифагор»", " «Успех»", " «Надежда»", " «Траектория»", " «Кругозор»",
        " «Синяя птица»", " «Вдохновение»", " «Мир знаний»", " «Феникс»", " «Маяк»", " «Меридиан»", " «Орбита»",
        " «Северное сияние»", " «Берёзка»", " «Исток»", " «Озарение»", " «Школа на Неве»", " «Ладога»",
        " «Созидание»", " «Эврика»", " «Логос»", " «Альфа»", " «Квант»", " «Родник»", " «Светлячок»",
        " «Восход»", " «Зелёная роща»", " «Кристалл»", " «Ломоносовская»", " «Наследие»", " «Олимп»",
        " «Пулковская»", " «Сфера»", " «Талант»", " «Унисон»", " «Южная»", " «Ярославна»", " «Азимут»"};
    static const WordList named_after{
        " имени Ломоносова", " имени Пушкина", " имени Гагарина", " имени Менделеева", " имени Л. Н. Толстого",
        " имени А. П. Чехова", " имени Королёва", " имени Вернадского", " имени Лобачевского",
        " имени Ковалевской", " имени Циолковского", " имени Лермонтова", " имени Гоголя", " имени Достоевского",
        " имени Курчатова", " имени Павлова", " имени Ушинского", " имени Макаренко", " имени Чебышёва",
        " имени Колмогорова", " имени Лихачёва", " имени Жуковского", " имени Крылова", " имени Тургенева",
        " имени Есенина", " имени Ахматовой", " имени Бунина", " имени Шолохова", " имени Капицы", " имени Ландау"};
    static const std::vector<NamePattern> patterns{
        {{&kinds, &numbers}, 3},
        {{&kinds, &quoted}, 1},
        {{&kinds, &numbers, &named_after}, 5},
        {{&kinds, &named_after}, 1},
    };
    return patterns;
}

// English: "Northern Academy", "Riverside High School", "St. Mary's Grammar School", "Oakfield College".
const std::vector<NamePattern>& english_patterns() {
    static const WordList kinds{" Academy", " High School", " Grammar School", " College", " School",
                                " Secondary School", " Community School", " Collegiate", " Preparatory School",
                                " Middle School", " Free School", " Technical College", " Upper School",
                                " International School"};
    static const WordList places{
        "Northern", "Southern", "Eastern", "Western", "Central", "Riverside", "Lakeside", "Hillcrest",
        "Meadowbrook", "Fairview", "Highgate", "Springfield", "Harbour View", "Cedar Grove", "Maple Grove",
        "Pine Ridge", "Silver Lake", "Parkside", "Queensbury", "Valley View", "Bayside", "Summit", "Heritage",
        "Crown Hill", "Windsor", "Cambridge", "Oxford", "Lancaster", "York", "Chester"};
    static const WordList stems{"Oak", "Elm", "Ash", "Birch", "Cedar", "Maple", "Willow", "Pine", "Holly",
                                "Hazel", "Stone", "River", "Brook", "Fox", "Kings", "Queens", "Mill", "Green",
                                "Black", "White", "Red", "North", "South", "East", "West"};
    static const WordList endings{"wood", "field", "bridge", "dale", "brook", "side", "view", "crest",
                                  "gate", "ford", "ton", "ley", "mere", "hurst", "haven", "moor"};
    static const WordList saints_prefix{"St. "};
    static const WordList saints{"Mary's", "John's", "Peter's", "Paul's", "Andrew's", "George's", "Patrick's",
                                 "Michael's", "Anne's", "Catherine's", "Thomas's", "James's", "Margaret's",
                                 "Luke's", "Mark's", "Bede's", "Hilda's", "Edmund's", "Clare's", "Francis's",
                                 "Joseph's", "Benedict's", "Augustine's", "Dunstan's", "Alban's"};
    static const WordList people{"Newton", "Darwin", "Faraday", "Shakespeare", "Dickens", "Brontë", "Austen",
                                 "Turing", "Lovelace", "Kelvin", "Maxwell", "Nightingale", "Wordsworth",
                                 "Tennyson", "Franklin", "Lincoln", "Jefferson", "Edison", "Curie", "Hawking",
                                 "Brunel", "Davy", "Herschel", "Milton", "Chaucer", "Keats", "Byron", "Orwell",
                                 "Tolkien", "Attenborough"};
    static const std::vector<NamePattern> patterns{
        {{&places, &kinds}, 1},
        {{&stems, &endings, &kinds}, 7},
        {{&saints_prefix, &saints, &kinds}, 1},
        {{&people, &kinds}, 1},
    };
    return patterns;
}

}  // namespace

const std::vector<NamePattern>& name_patterns(Lang lang) {
    return lang == Lang::English ? english_patterns() : russian_patterns();
}

}  // namespace hschool::content
