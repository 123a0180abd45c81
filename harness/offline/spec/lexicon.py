"""Vocabulary for the rule-based spec parser: English word classes and number inflection.

Pure data plus two pure functions (`singularize`, `pluralize`); the Vietnamese phrase table
lives in lexicon_vi.py. Sets are used
only for membership tests; everything that is iterated is a tuple or a dict (stable order).
"""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# --- word classes (English, lowercase, accents folded) -------------------------------------------

FUNCTION = _words("""
    a an the and or but nor with without for of in on at to from by as per each every into within
    inside under over about via plus also both including include includes like such etc eg ie than
    then so that which who whom whose what where when how why if while this these those there here
    it its they them their theirs we us our ours you your yours i me my mine he she his her him
    one ones two three four five any some all many much more most few several multiple other others
    another same just only very really too either neither not no yes please can could should would
    will shall may might must be is are am was were been being has have had having do does did
    let lets want wants need needs able using use uses via vs versus something anything everything
    nothing someone anyone everyone somebody everybody whatever whenever way ways
""")

DETERMINERS = _words("""
    a an the each every its their my our your his her one any some many multiple several single
    specific particular given this that these those
""")

# Pronouns/modals after which a plural-looking verb-noun is a verb ("an app that tracks expenses").
REL_PRONOUNS = _words("that which who it he she also can could will should i we you they")
# Negative contractions, with and without the apostrophe ("won’t" folds to "wont"): never a noun.
NEG_CONTRACTIONS = _words("""
    won't wont can't cant don't dont doesn't doesnt didn't didnt isn't isnt aren't arent wasn't wasnt
    weren't werent shouldn't shouldnt wouldn't wouldnt couldn't couldnt haven't havent hasn't hasnt
    hadn't hadnt mustn't mustnt needn't neednt
""")
# What people leave on a record ("leave comments on their workouts", "write a review of a book"):
# a record of its own, belonging to the record it is left on (relations.py).
FEEDBACK_NOUNS = _words("comment comments review reviews reply replies feedback remark remarks")
FEEDBACK_VERBS = _words("leave leaves leaving left write writes writing wrote post posts posting")
# Words that name a record's status column (a pass gives the record one).
STATUS_WORDS = _words("status state stage statuses states stages")
# "sorted by time": by when each record was added — created_at, a sort key of every record.
WHEN_WORDS = _words("time date created creation added newest oldest recency")
# Pronoun + auxiliary contractions ("any workouts they've saved", "we're adding"): function words,
# like the pronoun and auxiliary they stand for.
PRONOUN_CONTRACTIONS = frozenset(f"{pronoun}'{aux}" for pronoun in (
    "i", "you", "we", "they", "he", "she", "it", "that", "there", "who", "what", "here", "where")
    for aux in ("ve", "re", "ll", "d", "s", "m"))
FUNCTION = FUNCTION | PRONOUN_CONTRACTIONS
MODALS = _words("can could should will would may might must to who that") | NEG_CONTRACTIONS
NEGATIONS = _words("without no not never nor neither cannot") | NEG_CONTRACTIONS
# Key columns of a table written into a request ("id (PK)", "category_id (FK)"); every generated
# record has its integer id, so the primary-key words ask for nothing more.
KEY_COLUMNS = _words("id ids pk fk uuid guid")
PRIMARY_KEY_WORDS = _words("id ids pk uuid guid")

VERBS = _words("""
    build create make develop design write implement code generate add view see show display edit
    update modify change delete remove manage store keep save organize organise maintain handle
    support enable allow help provide offer contain get set put give take find search filter sort
    browse look like love wish go run start stop open assign share invite join follow borrow lend
    return buy sell pay send receive sign check mark complete finish read know think try work
    access connect categorize categorise belong own attach relate associate appear become come call
    describe explain perform place reserve rent hire apply approve reject submit ask respond
    monitor measure calculate compute sum estimate compare visualize analyze analyse summarize
    collect gather enter input fill choose select pick move drag drop click press prefer hold
    deliver process view list include lets allows enables helps wants needs enroll enrol unenroll
    attend subscribe unsubscribe unfollow withdraw
""")

# Generic plurals (META: "a set of", "the items") that a count names: "a number of sets" is one
# integer column, not a "number" text column.
COUNTED_META = _words("sets items parts sections options versions modules lists")

# Nouns that are also common verbs: a plural form is a noun; a singular needs noun context.
VERB_NOUNS = _words("""
    book order post note review comment tag schedule plan log record report track rate bill contact
    link bookmark message reply answer invoice count total rank play file shift visit transfer
    deposit request claim exercise grade score vote bid quote lead deal purchase step match
    question issue design offer budget loan group label trip
""")

META = _words("""
    app apps application applications web webapp website websites site sites system systems utility
    platform platforms tool tools service services portal software program programs api apis rest
    restful backend frontend full-stack fullstack server database databases db sqlite fastapi python
    html css javascript json crud management manager managers tracker trackers tracking organizer organiser planner
    feature features functionality functionalities function functions page pages screen screens
    view views ui ux interface interfaces form forms button buttons data information info records
    list lists collection collections catalog catalogue set sets thing things stuff ability
    abilities option options kind kinds type types lot lots bunch number numbers version module
    modules component components section sections part parts area areas field fields column columns
    attribute attributes crud operations operation endpoint endpoints route routes model models
    entity entities resource resources object objects example examples mode theme layout style
    template templates framework code repo repository workflow workflows logic storage persistence
    time times date dates day days week weeks month months year years today tomorrow morning
    evening hour hours minute minutes calendar support help basics
""")

ADJECTIVES = _words("""
    simple basic small tiny minimal minimalist new own easy nice modern clean quick fast full fully
    numeric numerical textual manual manually strictly spent
    various different shared public private online offline secure responsive beautiful pretty real
    little big large great good best better main related due daily weekly monthly yearly current
    recent upcoming past future important urgent free custom dynamic static interactive intuitive
    friendly lightweight robust scalable production ready working functional entire whole proper
    standard advanced extra additional optional required mandatory certain general primary
    secondary local remote internal external favorite favourite top first last next previous
    available possible necessary useful cool awesome fun neat tidy straightforward personalized
    complete completed visual persistent digital physical manual automatic graphical
    written built made sent given taken shown known chosen driven eaten hidden seen spoken kept held
    bought sold found run done begun forgotten
""")

# Areas that name what kind of app it is, not a record type ("a library system with books").
DOMAIN_AREAS = _words("""
    library inventory school university college hospital clinic restaurant cafe store shop
    bookstore warehouse company business office crm erp hr finance financial accounting personal
    home household family kitchen gym fitness health hotel farm church bank banking ecommerce
    commerce retail marketplace blog wiki portfolio agency salon spa pharmacy dental medical legal
    logistics travel sales marketing helpdesk education music productivity dormitory dorm hostel
    care gardening hydration wellness
""")

# Used only when no entity was named: the record type an area implies.
IMPLIED_ENTITY = {
    "blog": "post", "library": "book", "bookstore": "book", "inventory": "product",
    "store": "product", "shop": "product", "warehouse": "product", "crm": "contact",
    "restaurant": "dish", "clinic": "patient", "hospital": "patient", "music": "song",
    "school": "student",
}

NOUN_ING = _words("""
    meeting building booking listing painting clothing wedding recording training rating ceiling
    string king ring wing spring offering posting sighting lodging parking housing funding warning
    pudding earring sibling seedling evening
""")
# States a record is in ("overdue tracking", "pending payments"): never a record type, yet still
# a word that asks for something (they are not ADJECTIVES, which ask for nothing).
STATE_WORDS = _words("overdue late pending expired unpaid outstanding overdrawn")
# Amounts counted on a record ("add / remove points" of a player's score): a quantity, never a record
# type, and still an ask (adding to a count is more than editing the record).
QUANTITY_WORDS = _words("point points")
NOUN_LY = _words("family supply assembly reply ally fly butterfly lily rally belly jelly")
PEOPLE_SUBJECTS = _words("people person customers clients members students employees")

AUTH = _words("""
    auth authentication authenticate authenticated authorization authorisation login logins logout
    signin signup signon register registration account accounts user users password passwords
    username usernames multiuser
""")
DASHBOARD = _words("dashboard dashboards overview stats statistics analytics reporting")
COMPLETE = _words("""
    complete completed completing completion done finish finished finishing status statuses mark
    marked marking resolve resolved close closed checkoff
""")
PAGE_WORDS = _words("""
    web webapp website websites site page pages ui interface frontend html screen screens form forms
    react vue angular svelte next.js nextjs settings styling stylesheet stylesheets css
""")
API_WORDS = _words("api apis rest restful backend endpoint endpoints microservice graphql")
FRAMEWORKS = {"react": "React", "vue": "Vue", "angular": "Angular", "svelte": "Svelte",
              "next.js": "Next.js", "nextjs": "Next.js"}
OTHER_BACKENDS = {"django": "Django", "flask": "Flask", "express": "Express", "node": "Node.js",
                  "nodejs": "Node.js", "node.js": "Node.js", "rails": "Rails", "laravel": "Laravel",
                  "spring": "Spring", "php": "PHP", "java": "Java", "c#": "C#", "ruby": "Ruby",
                  "kotlin": "Kotlin", "swift": "Swift", "flutter": "Flutter", "dart": "Dart",
                  "bootstrap": "Bootstrap", "tailwind": "Tailwind", "wordpress": "WordPress",
                  "nest": "NestJS", "nestjs": "NestJS", "dotnet": ".NET", ".net": ".NET", "asp.net": "ASP.NET",
                  "docker": "Docker", "kubernetes": "Kubernetes", "aws": "AWS", "vercel": "Vercel",
                  "heroku": "Heroku", "sqflite": "SQFlite", "chakra": "Chakra UI"}
OTHER_DBS = {"postgres": "PostgreSQL", "postgresql": "PostgreSQL", "mysql": "MySQL",
             "mongodb": "MongoDB", "mongo": "MongoDB", "mariadb": "MariaDB", "redis": "Redis",
             "firebase": "Firebase", "supabase": "Supabase"}
# Storage that lives in the browser, and stack names the tables above lack (stack_asks.py).
BROWSER_STORES = {"localstorage": "client-only storage in the browser (localStorage)",
                  "local-storage": "client-only storage in the browser (localStorage)",
                  "sessionstorage": "browser sessionStorage", "indexeddb": "browser IndexedDB",
                  "indexed-db": "browser IndexedDB", "websql": "browser WebSQL"}
STACK_NAMES = {"vite": "Vite", "nuxt": "Nuxt", "nuxtjs": "Nuxt", "sveltekit": "SvelteKit", "gatsby": "Gatsby",
               "tailwindcss": "Tailwind", "jquery": "jQuery", "redux": "Redux", "electron": "Electron",
               "ionic": "Ionic", "fastify": "Fastify", "streamlit": "Streamlit", "firestore": "Firestore",
               "dynamodb": "DynamoDB", "pocketbase": "PocketBase", "appwrite": "Appwrite"}
# Stack names a request may write in camelCase ("localStorage", "indexedDB"): names, not columns.
TECH_WORDS = frozenset(FRAMEWORKS) | frozenset(OTHER_BACKENDS) | frozenset(OTHER_DBS) \
    | frozenset(BROWSER_STORES) | frozenset(STACK_NAMES)

# Head words of an app name: "recipe API", "expense tracker" (also used for titles).
APP_HEADS = _words("""
    app application api system manager tracker platform tool website site service portal planner
    organizer organiser game backend webapp management web list utility
""")
TITLE_HEADS = _words("""
    app application api system manager tracker platform tool website site service portal planner
    organizer organiser game backend webapp
""")

TITLE_NOUNS = _words("""
    task todo post book note article issue ticket event recipe movie song album course lesson
    chapter story bug goal habit question job meeting assignment idea entry document video film
    show podcast episode poem quote review announcement milestone chore errand reminder
    appointment photo page
""")
# Records identified by what they link and count ("orders have a product and a quantity"): one that
# links another record gets no invented required name (a name nobody asked for made POST
# {product_id, quantity} a 422). Named things (pets, tasks, books) keep theirs.
UNNAMED_NOUNS = _words("""
    order purchase sale payment transaction transfer deposit withdrawal donation booking
    reservation rental loan visit dose reading measurement enrollment enrolment registration
    attendance checkin shipment delivery vote bid refill
""")
STATUS_NOUNS = _words("""
    task todo chore issue ticket bug goal habit assignment errand milestone reminder job
""")

# Field vocabulary: words that name a column, never a table.
FIELD_ONLY = _words("""
    title name description price cost amount quantity qty priority deadline email phone address url
    isbn sku age weight height color colour size duration birthday dob username password bio
    summary body content text subject surname firstname lastname telephone mobile nickname
""")
INT_WORDS = _words("""
    count quantity qty stock age year rating priority score level rank capacity seats servings
    minutes hours calories pages number floor interval quota
""")
FLOAT_WORDS = _words("""
    price amount cost weight height total balance salary budget rate fee distance latitude
    longitude percent percentage tax discount limit cap threshold spending
""")
DATE_WORDS = _words("date deadline birthday dob due birthdate")
DATETIME_WORDS = _words("time timestamp datetime")
BOOL_WORDS = _words("""
    active enabled published archived paid available visible public private favorite favourite
    flagged pinned
""")
TEXT_WORDS = _words("""
    description notes note body content bio biography summary details instructions text remarks
    directions abstract comments
""")
STR_NUMBERS = _words("phone isbn serial tracking account card reference invoice order zip postal")
# Column words that are also record types when plural ("products with a category" vs "categories").
FIELD_NOUNS = _words("""
    author genre category location label type language publisher edition role position unit
    currency link tag code department brand supplier customer owner model make
""")
FIELD_VOCAB = (FIELD_ONLY | INT_WORDS | FLOAT_WORDS | DATE_WORDS | DATETIME_WORDS | BOOL_WORDS
               | TEXT_WORDS | FIELD_NOUNS
               | _words("start end url website status done tags isbn sku notes details"))
KEEP_PLURAL_FIELDS = _words("""
    notes details instructions tags remarks directions comments servings calories minutes hours
    pages seats
""")
FIELD_SKIP = _words("""
    a an the its their his her some each one field fields column columns attribute attributes
""")
FIELD_DROP = _words("id owner owner_id user user_id created created_at updated updated_at parent parent_id")

# (parent, child) pairs that imply a relation when both are entities and nothing else was said.
KNOWN_PARENTS = (
    ("project", "task"), ("recipe", "ingredient"), ("post", "comment"), ("album", "photo"),
    ("playlist", "song"), ("course", "lesson"), ("invoice", "line item"), ("order", "order item"),
    ("survey", "question"), ("quiz", "question"), ("book", "chapter"), ("project", "milestone"),
)

# Multi-word English phrases merged into one token (after Vietnamese mapping).
PHRASES = {
    ("log", "in"): "login", ("log", "out"): "logout", ("sign", "in"): "signin",
    ("sign", "up"): "signup", ("sign", "out"): "logout", ("to", "do"): "todo",
    ("to", "dos"): "todos", ("user", "interface"): "ui", ("user", "experience"): "ux",
    ("user", "friendly"): "friendly", ("front", "end"): "frontend", ("back", "end"): "backend",
    ("web", "site"): "website", ("check", "off"): "checkoff", ("tick", "off"): "checkoff",
    ("real", "time"): "real-time", ("e", "mail"): "email", ("todo", "item"): "todo",
    ("todo", "items"): "todos", ("blog", "post"): "post", ("blog", "posts"): "posts",
    ("line", "item"): "line item", ("line", "items"): "line items",
    ("order", "item"): "order item", ("order", "items"): "order items",
    ("menu", "item"): "menu item", ("menu", "items"): "menu items",
    ("inventory", "item"): "inventory item", ("inventory", "items"): "inventory items",
    ("time", "entry"): "time entry", ("time", "entries"): "time entries",
    ("time", "card"): "time entry", ("time", "cards"): "time entries",   # one clock-in..clock-out span
    ("time", "sheet"): "time entry", ("time", "sheets"): "time entries",
    ("action", "item"): "action item", ("action", "items"): "action items",
    ("search", "bar"): "search", ("search", "box"): "search", ("search", "field"): "search",
    ("board", "game"): "board game", ("board", "games"): "board games",
}
# "duration in minutes": the unit decides the column type.
# A field's type written after it in brackets, as in a data model ("deliveryOn (date)").
TYPE_ASIDES = {"date": "date", "datetime": "datetime", "timestamp": "datetime", "number": "number",
               "numeric": "number", "int": "int", "integer": "int", "decimal": "float", "float": "float",
               "double": "float", "text": "text", "string": "str", "str": "str", "varchar": "str",
               "boolean": "bool", "bool": "bool"}
# Plural nouns a record has as pictures or files ("products with photos"): columns, never records.
MEDIA_PLURALS = _words("photos images pictures")
MEDIA_FILES = MEDIA_PLURALS | _words("files attachments videos documents")
UNIT_TYPES = {"minutes": "int", "hours": "int", "seconds": "int", "days": "int", "weeks": "int",
              "kg": "float", "km": "float", "dollars": "float", "usd": "float", "euros": "float",
              "eur": "float", "meters": "float", "cm": "float", "grams": "float", "pounds": "float",
              "lbs": "float", "miles": "float", "percent": "float", "liters": "float",
              "kilograms": "float", "kilometers": "float", "kilometres": "float", "inches": "float",
              "centimeters": "float", "centimetres": "float", "ounces": "float", "litres": "float",
              "feet": "float", "metres": "float", "months": "int", "years": "int"}
HYPHEN_FORMS = {"timecard": "time entry", "timecards": "time entries", "timesheet": "time entry",
                "timesheets": "time entries", "time-card": "time entry", "time-sheet": "time entry",
                "to-do": "todo", "to-dos": "todos", "e-mail": "email", "log-in": "login",
                "sign-in": "signin", "sign-up": "signup", "e-commerce": "ecommerce",
                "front-end": "frontend", "back-end": "backend", "multi-user": "multiuser",
                "check-off": "checkoff", "todo's": "todos"}

# Parser word classes (rules).
SEPARATORS = _words(", / & + and or plus")
SITE_WORDS = _words("web webapp website websites site")
FIELD_TRIGGERS = _words("with having has have containing contains including ( :")
LOOSE_TRIGGERS = _words("with having including")   # may follow the app noun: "a todo app with ..."
BELONG = _words("belong belongs belonging assigned attached linked tied grouped associated")
HAVE = _words("has have contain contains own owns include includes")
# "habit creation with a name": the action on a record; the record is the noun before it.
ACTION_NOUNS = _words("creation creating editing deletion removal registration entry logging tracking "
                      "management")
FILLER = _words("that which who each can could may are is must should will always all also usually")
QUANTIFIERS = DETERMINERS | _words("many multiple several more or list lots of set number bunch "
                                   "collection zero")
FEATURE_GLUE = _words("via using through with in on over")   # "payment processing via Stripe"
APP_NOUNS = _words("app application system platform game website site client version board")

DEFAULT_NON_GOALS = ("deployment", "mobile-app", "browser-automation")
# Words the spec validator reads as those non-goals: never entity names, and an unsupported
# feature that uses one lifts that non-goal.
NON_GOAL_TERMS = {"deployment": _words("deploy deployment deployed"),
                  "mobile-app": _words("mobile ios android"),
                  "browser-automation": _words("browser playwright selenium")}
NON_GOAL_WORDS = frozenset().union(*NON_GOAL_TERMS.values())


# Words the rules know; in Vietnamese text they are never taken for a syllable ("deploy").
KNOWN_ENGLISH = (FUNCTION | VERBS | VERB_NOUNS | META | ADJECTIVES | DOMAIN_AREAS | AUTH | DASHBOARD
                 | COMPLETE | PAGE_WORDS | API_WORDS | FIELD_VOCAB | TITLE_NOUNS | frozenset(FRAMEWORKS)
                 | frozenset(BROWSER_STORES) | frozenset(STACK_NAMES) | _words("client-only client-side"))


# --- number inflection ----------------------------------------------------------------------------

_IRREGULAR = {
    "people": "person", "children": "child", "men": "man", "women": "woman", "mice": "mouse",
    "geese": "goose", "teeth": "tooth", "feet": "foot", "criteria": "criterion", "cacti": "cactus",
    "analyses": "analysis", "theses": "thesis", "diagnoses": "diagnosis", "wolves": "wolf",
    "leaves": "leaf", "shelves": "shelf", "knives": "knife", "lives": "life", "wives": "wife",
    "halves": "half", "thieves": "thief", "loaves": "loaf", "calves": "calf", "quizzes": "quiz",
    "statuses": "status", "buses": "bus", "bonuses": "bonus", "viruses": "virus",
    "campuses": "campus", "syllabi": "syllabus", "alumni": "alumnus", "indices": "index",
    "heroes": "hero", "potatoes": "potato", "tomatoes": "tomato", "echoes": "echo",
    "volcanoes": "volcano", "mosquitoes": "mosquito", "oxen": "ox",
}
_IRREGULAR_PLURAL = {v: k for k, v in _IRREGULAR.items()}
_SAME = _words("""
    news series species sheep fish deer staff equipment software furniture clothing data media
    goods clothes glasses scissors pants jeans savings belongings premises headquarters
    information feedback luggage baggage homework music
""")
_IES_KEEP = _words("""
    movies cookies zombies calories pies ties lies brownies selfies rookies smoothies goalies
    species series
""")
_CH_KEEP = _words("caches niches headaches avalanches moustaches mustaches")
_S_SINGULAR_ENDS = ("ss", "us", "is")


def singularize(word: str) -> str:
    """The singular of an English noun (`word` lowercase); unknown forms come back unchanged."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word in _SAME or len(word) < 3 or not word.endswith("s") or word.endswith(_S_SINGULAR_ENDS):
        return word
    if word.endswith("ies") and word not in _IES_KEEP:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "zzes", "shes")) or (word.endswith("ches") and word not in _CH_KEEP):
        return word[:-3] if word.endswith("zzes") else word[:-2]
    return word[:-1]


def pluralize(word: str) -> str:
    """The plural of an English singular noun (`word` lowercase, last word inflected)."""
    head, _, last = word.rpartition(" ")
    prefix = head + " " if head else ""
    if last in _IRREGULAR_PLURAL:
        return prefix + _IRREGULAR_PLURAL[last]
    if last in _SAME:
        return word
    if last.endswith("y") and len(last) > 1 and last[-2] not in "aeiou":
        return prefix + last[:-1] + "ies"
    if last.endswith(("s", "x", "z", "ch", "sh")):
        return prefix + last + "es"
    return prefix + last + "s"
