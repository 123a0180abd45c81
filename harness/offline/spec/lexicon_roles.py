"""Word classes for clause accounting: what the offline generator positively understands.

The default is flipped: a content word of a clause that no rule recognises makes the clause
`not_built`. These lists name what IS understood (verbs the generated CRUD app performs, words
that only frame a request), never what is not.
"""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Verbs whose object is a record type the app stores ("manage tasks", "keep track of books").
ENTITY_VERBS = _words("""
    manage track store record log list keep organize organise catalog catalogue catalogs maintain
    handle add create save enter browse edit delete remove view update register book schedule
    collect administer administrate rate post take crud include fetch retrieve submit define specify
""")
# Verbs the generated CRUD app performs, or that only frame the ask ("I want", "users can").
SUPPORTED_VERBS = ENTITY_VERBS | _words("""
    build make develop design write implement code generate see show display modify change get
    find look let allow enable help want need like love able use provide support include contain
    access lists allows enables helps wants needs go open put mark complete finish check select
    choose pick fill input type click press tap view want would say belong assign attach link
    relate associate categorize categorise group own has have having include includes containing
    called named labeled labelled set edit read kept stored tracked listed start login logout
    signin signup sign log create tick navigate greet perform require requires required
""")
# Words that frame a request or give background; they ask for nothing themselves.
CONTEXT_WORDS = _words("""
    hi hello hey dear greetings thanks thank cheers regards welcome ok okay please sure kindly
    below above following epic epics story stories requirement requirements feature features spec
    specification overview description goal goals purpose idea ideas project brief summary note
    notes scope background context details detail here there list item items basic core main key
    things user users person people someone team everyone anyone customer customers client clients
    myself yourself ourselves friend friends family me idea concept mvp version phase
    acceptance criteria criterion scenario scenarios described
    v1 first initial prototype demo bonus optional extras nice technology technologies tech
""")
# UI and layout vocabulary: served as the generated pages, never tables.
UI_WORDS = _words("""
    header footer navbar nav navigation sidebar menu modal modals dialog popup button buttons
    dropdown dropdowns picker pickers page pages screen screens view views form forms input inputs
    field fields table tables card cards tab tabs panel panels layout link links icon icons logo
    banner toolbar checkbox checkboxes textbox textarea column columns row rows grid widget
    widgets section sections ui ux interface design look feel style styling css home homepage
    landing index list lists item items entry entries detail details web webapp website site
    frontend html display
""")
# "I am a teacher", "as a manager": the noun after these is who asks, not what to store.
SELF_INTRO = (("i", "am"), ("i'm", None), ("im", None), ("we", "are"), ("we're", None),
              ("as", "a"), ("as", "an"), ("i", "run"), ("we", "run"), ("i", "own"), ("i", "work"))
# Adverbs and particles the function-word list lacks ("clock in and out", "now", "again").
PARTICLES = _words("""
    now again off out up down away back through later soon already still even ever never always
    often sometimes together instead anyway maybe perhaps etc onto upon across along around longer
    throughout toward towards whether however therefore thus
""")
# Presentation and capability nouns: what an app shows or does, never a table of records.
CAPABILITY_NOUNS = _words("""
    chart charts graph graphs map maps calendar calendars export exports import imports
    visualization visualizations visualisation integration integrations algorithm algorithms
    animation animations representation format formats history report reports
""")
# Where data is kept: the generated app keeps it in SQLite, so these are never record types.
STORAGE_WORDS = _words("""
    file files folder folders database databases db spreadsheet spreadsheets storage disk cloud
    cache memory
""")
# Where the app runs: the generated app is served locally (uvicorn on localhost), so these ask nothing more.
LOCAL_RUN_WORDS = _words("localhost running runs hosted locally")
# Navigation words: a noun before them names a page or tab ("the checkout page"), not a record.
NAV_HEADS = _words("page pages screen screens tab tabs view views section sections button buttons menu")
# Account words: a noun before them is a kind of user ("employee accounts"), which is auth.
ACCOUNT_WORDS = _words("account accounts login logins credentials password passwords profile-login")
# Suffixes of adjectives and verbs that are never record types ("comprehensive", "optimize").
NON_NOUN_SUFFIXES = ("ive", "ous", "ful", "ible", "ize", "ise", "ify", "izes", "ises")
# Words that say who may do something; with login they are the auth users.
ACTOR_WORDS = _words("user users admin admins administrator member members visitor visitors guest")


def verb_base(word: str) -> str:
    """A verb's base form for the inflections this parser meets (adds, added, adding)."""
    for suffix, repl in (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)] + repl
            if base in SUPPORTED_VERBS or base + "e" in SUPPORTED_VERBS:
                return base if base in SUPPORTED_VERBS else base + "e"
            if len(base) > 3 and base[-1] == base[-2] and base[:-1] in SUPPORTED_VERBS:
                return base[:-1]   # "logged", "mapping"
    return word


def is_supported_verb(word: str) -> bool:
    return word in SUPPORTED_VERBS or verb_base(word) in SUPPORTED_VERBS


def is_entity_verb(word: str) -> bool:
    return word in ENTITY_VERBS or verb_base(word) in ENTITY_VERBS
