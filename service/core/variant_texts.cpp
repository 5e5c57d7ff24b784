#include "service/core/variant_texts.h"

namespace foxgeese::service {
namespace {

struct Entry {
    std::string_view variant;
    std::string_view language;
    VariantTexts texts;
};

constexpr Entry kEntries[] = {
    {"standard",
     "en",
     {"Fox and Geese",
      "One fox against 13 geese on a 33-point cross with a diagonal between every two "
      "neighbouring points. The fox moves first, steps along any line or jumps a neighbouring "
      "goose to capture it, and may chain jumps in one turn; capturing is optional. Geese step "
      "forward or diagonally forward, never back. The geese win by trapping the fox; the fox "
      "wins when fewer than four geese remain or the geese cannot move. A position repeated "
      "three times, or fifty moves each without a capture or forward goose step, is a draw."}},
    {"standard",
     "el",
     {"Αλεπού και Χήνες",
      "Μία αλεπού αντιμετωπίζει 13 χήνες σε σταυρό 33 σημείων, με διαγώνιες σε κάθε τετράγωνο του "
      "ταμπλό. Η αλεπού ξεκινά από το κέντρο και κάνει την πρώτη κίνηση: προχωρά ένα σημείο πάνω "
      "σε οποιαδήποτε γραμμή ή περνά με άλμα πάνω από μια γειτονική χήνα και την αιχμαλωτίζει, και "
      "μπορεί να κάνει περισσότερα άλματα στην ίδια κίνηση. Η αιχμαλωσία δεν είναι υποχρεωτική. Οι "
      "χήνες προχωρούν ευθεία ή λοξά προς τα εμπρός, ποτέ προς τα πίσω. Οι χήνες νικούν αν "
      "εγκλωβίσουν την αλεπού ώστε να μην μπορεί να κινηθεί· η αλεπού νικά όταν οι χήνες πέσουν "
      "κάτω από τέσσερις ή όταν δεν έχουν καμία κίνηση. Η παρτίδα λήγει ισόπαλη όταν η ίδια θέση "
      "εμφανιστεί για τρίτη φορά ή όταν περάσουν πενήντα κινήσεις από την καθεμία πλευρά χωρίς να "
      "αιχμαλωτιστεί χήνα και χωρίς να προχωρήσει καμία χήνα μπροστά."}},
    {"standard",
     "pl",
     {"Lis i gęsi",
      "Jeden lis przeciwko 13 gęsiom na krzyżu z 33 punktów, z przekątnymi w każdym kwadracie "
      "planszy. Lis stoi pośrodku i wykonuje pierwszy ruch: przesuwa się o jeden punkt wzdłuż "
      "dowolnej linii albo przeskakuje sąsiednią gęś i ją zbija, a w jednym ruchu może skakać "
      "wielokrotnie. Bicie nie jest obowiązkowe. Gęsi posuwają się prosto lub na ukos naprzód, "
      "nigdy wstecz. Gęsi wygrywają, gdy zablokują lisa tak, że nie może się ruszyć; lis wygrywa, "
      "gdy na planszy zostaną najwyżej trzy gęsi albo gęsi nie mają żadnego ruchu. Remis "
      "następuje, gdy ta sama pozycja pojawi się po raz trzeci albo gdy przez pięćdziesiąt ruchów "
      "z każdej strony nie padnie żadne bicie ani żadna gęś nie posunie się naprzód."}},
    {"standard",
     "tr",
     {"Tilki ve Kazlar",
      "Her karesinde köşegenler bulunan 33 noktalı bir haç üzerinde bir tilki 13 kaza karşı oynar. "
      "Tilki merkezden başlar ve ilk hamleyi yapar: herhangi bir çizgi boyunca komşu noktaya geçer "
      "ya da yanındaki bir kazın üstünden atlayarak onu tahtadan alır ve aynı hamlede atlamaya "
      "devam edebilir. Taş almak zorunlu değildir. Kazlar yalnızca düz ya da çapraz olarak ileri "
      "gidebilir, geri dönemez. Kazlar tilkiyi kıpırdayamayacak hâle getirirse kazanır; tilki ise "
      "kaz sayısı dördün altına düştüğünde ya da kazların yapacak hamlesi kalmadığında kazanır. "
      "Aynı pozisyon üçüncü kez ortaya çıkarsa ya da iki taraf da taş alınmadan ve bir kaz ileri "
      "gitmeden ellişer hamle yaparsa oyun berabere biter."}},
    {"standard",
     "nb",
     {"Rev og gjess",
      "Én rev mot 13 gjess på et kors med 33 punkter og diagonaler i hver rute. Reven starter i "
      "midten og trekker først: den flytter ett steg langs en hvilken som helst linje eller hopper "
      "over en nabogås og slår den, og kan hoppe flere ganger i samme trekk. Det er frivillig å "
      "slå. Gjessene flytter ett steg rett eller skrått fremover, aldri tilbake. Gjessene vinner "
      "ved å sperre reven inne så den ikke kan flytte; reven vinner så snart gjessene er færre enn "
      "fire, eller når gjessene står uten trekk. Partiet er remis når samme stilling oppstår for "
      "tredje gang, eller etter femti trekk hver uten slag og uten at en gås har gått forover."}},
    {"big_cross",
     "en",
     {"Big cross (Gåsetavl)",
      "One fox against 18 geese on a 45-point cross whose diagonals pass through only every "
      "second point. The fox starts in the upper arm and moves first; geese fill the lower arm "
      "and the row across the cross. The fox steps or jumps as in the standard game, capture "
      "optional; geese step forward, diagonally forward or sideways, never back. The geese win "
      "by trapping the fox, the fox when fewer than four geese remain. Threefold repetition and "
      "fifty moves each without progress are draws."}},
    {"big_cross",
     "el",
     {"Μεγάλος σταυρός (Gåsetavl)",
      "Μία αλεπού αντιμετωπίζει 18 χήνες σε σταυρό 45 σημείων, όπου μόνο ένα στα δύο σημεία έχει "
      "διαγώνιες γραμμές. Η αλεπού ξεκινά στον πάνω βραχίονα, στο μέσο της σειράς που βρίσκεται "
      "πιο κοντά στο κέντρο, και παίζει πρώτη· οι χήνες καλύπτουν τον κάτω βραχίονα και την "
      "οριζόντια σειρά ακριβώς από πάνω του, σε όλο το πλάτος του σταυρού. Η αλεπού κινείται και "
      "κάνει άλματα όπως στο κλασικό παιχνίδι, με προαιρετική αιχμαλωσία· οι χήνες προχωρούν "
      "ευθεία ή λοξά προς τα εμπρός ή πηγαίνουν στο πλάι, ποτέ προς τα πίσω. Οι χήνες νικούν αν "
      "εγκλωβίσουν την αλεπού· η αλεπού νικά όταν οι χήνες πέσουν κάτω από τέσσερις ή όταν δεν "
      "έχουν καμία κίνηση. Η παρτίδα λήγει ισόπαλη όταν η ίδια θέση εμφανιστεί για τρίτη φορά ή "
      "όταν περάσουν πενήντα κινήσεις από την καθεμία πλευρά χωρίς να αιχμαλωτιστεί χήνα και χωρίς "
      "να προχωρήσει καμία χήνα μπροστά."}},
    {"big_cross",
     "pl",
     {"Duży krzyż (Gåsetavl)",
      "Jeden lis przeciwko 18 gęsiom na krzyżu z 45 punktów, na którym linie ukośne ma tylko co "
      "drugi punkt. Lis zaczyna w górnym ramieniu, na środkowym punkcie rzędu położonego najbliżej "
      "centrum, i rusza się pierwszy; gęsi zajmują dolne ramię i biegnący tuż nad nim rząd przez "
      "całą szerokość krzyża. Lis chodzi i skacze jak w grze standardowej, a bicie jest "
      "dobrowolne; gęsi posuwają się prosto lub na ukos naprzód albo w bok, nigdy wstecz. Gęsi "
      "wygrywają, blokując lisa; lis wygrywa, gdy na planszy zostaną najwyżej trzy gęsi albo gęsi "
      "nie mają żadnego ruchu. Remis następuje, gdy ta sama pozycja pojawi się po raz trzeci albo "
      "gdy przez pięćdziesiąt ruchów z każdej strony nie padnie żadne bicie ani żadna gęś nie "
      "posunie się naprzód."}},
    {"big_cross",
     "tr",
     {"Büyük Haç (Gåsetavl)",
      "Köşegen çizgilerin noktaların yalnızca yarısından, dönüşümlü olarak geçtiği 45 noktalı bir "
      "haç üzerinde bir tilki 18 kaza karşı oynar. Tilki üst kolda, merkeze en yakın sıranın "
      "ortasından başlar ve ilk hamleyi yapar; kazlar alt kolu ve onun hemen üstünde haçın bir "
      "ucundan öbür ucuna uzanan sırayı doldurur. Tilki standart oyundaki gibi adım atar ve atlar, "
      "taş almak isteğe bağlıdır; kazlar düz ya da çapraz olarak ileri veya yana gidebilir, geri "
      "dönemez. Kazlar tilkiyi kıpırdayamayacak hâle getirerek kazanır; tilki ise kaz sayısı "
      "dördün altına düştüğünde ya da kazların yapacak hamlesi kalmadığında kazanır. Aynı pozisyon "
      "üçüncü kez ortaya çıkarsa ya da iki taraf da taş alınmadan ve bir kaz ileri gitmeden "
      "ellişer hamle yaparsa oyun berabere biter."}},
    {"big_cross",
     "nb",
     {"Stort kors (Gåsetavl)",
      "Én rev mot 18 gjess på et kors med 45 punkter, der bare annethvert punkt har diagonale "
      "linjer. Reven starter i den øverste armen, midt på raden nærmest sentrum, og trekker først; "
      "gjessene fyller den nederste armen og raden tvers over korset like over den. Reven flytter "
      "og hopper som i standardspillet, og det er frivillig å slå; gjessene flytter rett eller "
      "skrått fremover eller til siden, aldri tilbake. Gjessene vinner ved å sperre reven inne; "
      "reven vinner så snart gjessene er færre enn fire, eller når gjessene står uten trekk. "
      "Partiet er remis når samme stilling oppstår for tredje gang, eller etter femti trekk hver "
      "uten slag og uten at en gås har gått forover."}},
    {"two_foxes",
     "en",
     {"Two foxes (Halatafl)",
      "Two foxes against 20 geese on the 33-point cross. The foxes start on the far corners of "
      "the top arm and move first. Capturing is compulsory: if a fox can jump, one must, and a "
      "jumping fox goes on while it can. Geese step forward, diagonally forward or sideways. The "
      "geese win by filling all nine points of the top arm (the pen) or trapping both foxes; "
      "the foxes win when fewer than nine geese remain. Threefold repetition and fifty moves "
      "each without progress are draws."}},
    {"two_foxes",
     "el",
     {"Δύο αλεπούδες (Halatafl)",
      "Δύο αλεπούδες αντιμετωπίζουν 20 χήνες στον σταυρό των 33 σημείων. Οι αλεπούδες ξεκινούν από "
      "τις δύο ακριανές γωνίες του πάνω βραχίονα και παίζουν πρώτες· οι χήνες καλύπτουν τον κάτω "
      "βραχίονα, τη μεσαία οριζόντια σειρά και τη σειρά κάτω από αυτήν. Η αιχμαλωσία είναι "
      "υποχρεωτική: αν κάποια αλεπού μπορεί να αιχμαλωτίσει, η κίνηση πρέπει να είναι άλμα, και η "
      "αλεπού που κάνει άλμα συνεχίζει όσο μπορεί. Οι χήνες προχωρούν ευθεία ή λοξά προς τα εμπρός "
      "ή πηγαίνουν στο πλάι. Οι χήνες νικούν αν γεμίσουν και τα εννέα σημεία του πάνω βραχίονα (το "
      "μαντρί) ή αν εγκλωβίσουν και τις δύο αλεπούδες· οι αλεπούδες νικούν όταν οι χήνες πέσουν "
      "κάτω από εννέα ή όταν δεν έχουν καμία κίνηση. Η παρτίδα λήγει ισόπαλη όταν η ίδια θέση "
      "εμφανιστεί για τρίτη φορά ή όταν περάσουν πενήντα κινήσεις από την καθεμία πλευρά χωρίς να "
      "αιχμαλωτιστεί χήνα και χωρίς να προχωρήσει καμία χήνα μπροστά."}},
    {"two_foxes",
     "pl",
     {"Dwa lisy (Halatafl)",
      "Dwa lisy przeciwko 20 gęsiom na krzyżu z 33 punktów. Lisy zaczynają w dwóch zewnętrznych "
      "narożnikach górnego ramienia i ruszają się pierwsze; gęsi zajmują dolne ramię, środkowy "
      "rząd i rząd pod nim. Bicie jest obowiązkowe: jeśli któryś lis może skoczyć, trzeba bić, a "
      "lis, który bije, skacze dalej, dopóki może. Gęsi posuwają się prosto lub na ukos naprzód "
      "albo w bok. Gęsi wygrywają, gdy obsadzą wszystkie dziewięć punktów górnego ramienia "
      "(zagrodę) albo zablokują oba lisy; lisy wygrywają, gdy na planszy zostanie najwyżej osiem "
      "gęsi albo gęsi nie mają żadnego ruchu. Remis następuje, gdy ta sama pozycja pojawi się po "
      "raz trzeci albo gdy przez pięćdziesiąt ruchów z każdej strony nie padnie żadne bicie ani "
      "żadna gęś nie posunie się naprzód."}},
    {"two_foxes",
     "tr",
     {"İki Tilki (Halatafl)",
      "33 noktalı haç üzerinde iki tilki 20 kaza karşı oynar. Tilkiler üst kolun en uçtaki iki "
      "köşesinden başlar ve ilk hamleyi yapar; kazlar alt kolu, ortadaki sırayı ve onun altındaki "
      "sırayı doldurur. Taş almak zorunludur: tilkilerden biri atlayabiliyorsa atlama yapılmalıdır "
      "ve atlayan tilki atlayabildiği sürece devam eder. Kazlar düz ya da çapraz olarak ileri veya "
      "yana gidebilir. Kazlar, üst kolun dokuz noktasının tamamını (ağılı) doldurarak ya da iki "
      "tilkiyi de kıpırdayamayacak hâle getirerek kazanır; tilkiler kaz sayısı dokuzun altına "
      "düştüğünde ya da kazların yapacak hamlesi kalmadığında kazanır. Aynı pozisyon üçüncü kez "
      "ortaya çıkarsa ya da iki taraf da taş alınmadan ve bir kaz ileri gitmeden ellişer hamle "
      "yaparsa oyun berabere biter."}},
    {"two_foxes",
     "nb",
     {"To rever (Halatafl)",
      "To rever mot 20 gjess på korset med 33 punkter. Revene starter i de to ytre hjørnene av den "
      "øverste armen og trekker først; gjessene fyller den nederste armen, den midterste raden og "
      "raden under den. Revene må slå når de kan: har en rev et hopp, må trekket være et hopp, og "
      "en rev som har hoppet, hopper videre så lenge det går. Gjessene flytter rett eller skrått "
      "fremover eller til siden. Gjessene vinner når de har en gås på hvert av de ni punktene i "
      "den øverste armen (kveet), eller når begge revene er sperret inne; revene vinner så snart "
      "gjessene er færre enn ni, eller når gjessene står uten trekk. Partiet er remis når samme "
      "stilling oppstår for tredje gang, eller etter femti trekk hver uten slag og uten at en gås "
      "har gått forover."}},
};

constexpr struct {
    std::string_view language;
    OptionTexts texts;
} kOptions[] = {
    {"en",
     {"Number of geese at the start: 13, or 15 and 17 for an easier game for the geese.",
      "Whether geese may also step sideways along a line."}},
    {"el",
     {"Αριθμός χηνών στην αρχή: 13, ή 15 και 17 για να γίνει το παιχνίδι πιο εύκολο για τις χήνες.",
      "Επιτρέπει στις χήνες να κινούνται και προς τα δεξιά ή αριστερά πάνω σε μια γραμμή."}},
    {"pl",
     {"Liczba gęsi na początku gry: 13, albo 15 lub 17, co ułatwia grę gęsiom.",
      "Czy gęsi mogą też przesuwać się w bok wzdłuż linii."}},
    {"tr",
     {"Başlangıçtaki kaz sayısı: 13; kazlar için oyunu kolaylaştırmak üzere 15 ya da 17.",
      "Kazların bir çizgi boyunca yana da gidip gidemeyeceği."}},
    {"nb",
     {"Antall gjess ved start: 13, eller 15 og 17 for et lettere spill for gjessene.",
      "Om gjessene også kan gå sidelengs langs en linje."}},
};

}  // namespace

const VariantTexts* variant_texts(std::string_view variant, std::string_view language) {
    for (const Entry& e : kEntries) {
        if (e.variant == variant && e.language == language) return &e.texts;
    }
    return nullptr;
}

const OptionTexts* option_texts(std::string_view language) {
    for (const auto& o : kOptions) {
        if (o.language == language) return &o.texts;
    }
    return nullptr;
}

}  // namespace foxgeese::service
