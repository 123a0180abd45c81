"""A third held-out set of construct phrasings (issue #51), taken from public app requests and
written before the tuning round that followed it (the branch "constructs", 2026-12-07): each row is
a request as its author phrased the construct, shortened to a whole request that names its records,
with the public page it comes from. These rows are never tuned on: a row that fails stays here,
marked `xfail` (not strict) with why, so the table measures how far the pattern rows generalise.

Expectations are those of tests/test_construct_phrasings.py (its module docstring).
"""

from __future__ import annotations

import pytest

from harness.agents.spec_agent import postprocess
from harness.offline.spec.rules import rule_based_spec
from tests.test_construct_phrasings import _check, _params

PUBLIC = [
    # https://useme.com/en/jobs/customer-panel-on-the-website,105025 ("Create and assign tasks to users")
    ("assigned", "A customer panel with user accounts. Create tasks with a title and a due date and assign "
                 "them to users. Users can change the status of tasks but cannot edit them.",
     [("assigned", "task")]),
    # the same post ("Adding events with user assignment. Visibility of events only for assigned users.")
    ("assigned", "A customer panel with user accounts. The administrator adds events with a title and a date "
                 "and assigns each event to a user. Events are visible only to the assigned users.",
     [("assigned", "event")]),
    # http://www.lhbarch.com/admin/help.asp ("add projects, and assign users to projects")
    ("assigned", "In the admin area you can add projects and assign users to projects. Users log in and view "
                 "the projects they have been assigned.", [("assigned", "project")]),
    # http://websitedesignandsupport.com/software-engineering-case-study.html ("allow only the managers
    # group to view, update, or delete billing information")
    ("manage", "The software maintains customers, orders and invoices. Login is required for all users. "
               "Only managers can update or delete invoices.", [("manage", "invoice", "manager")]),
    # https://github.com/KimberlyRamirez/contact_manager_node ("Sorting contacts by tags")
    ("many", "A contact manager: contacts have a name, a phone number and an email. A contact can have "
             "several tags, and you can sort contacts by tag.", [("many", "contact", "tag")]),
    # taskplaner PROJECT.md ("Attach images to entries", "Organize entries with tags")
    ("attachments", "A personal web app for capturing entries with a title and a note. Attach images to "
                    "entries and organize entries with tags.",
     [("attachments", "entry"), ("many", "entry", "tag")]),
    # https://lakestevensthrift.com/docs/volunteer-admin ("Each shift has a configurable capacity limit")
    ("capacity", "Volunteers sign up for shifts at the thrift store. Shifts have a date and a time slot; a "
                 "signup records the shift, the volunteer's name and email. Each shift has a capacity limit "
                 "to prevent overstaffing.", [("capacity", "signup", "shift")]),
    # https://doc.trackout.app/maintenance-tracking ("bulk import a maintenance schedule from a CSV file")
    ("csv_import", "Cars have a name. Reminders have a due date, a service type and a mileage. You can bulk "
                   "import reminders from a CSV file.", [("csv_import", "reminder")]),
    # http://brilorsoftware.com/VMTHelp/PaneTwo.htm ("the next projected maintenance date")
    ("computed", "Vehicles have a name. Services record the vehicle, the last service date and an interval "
                 "in days. The next service date is the last service date plus the interval.",
     [("computed", "service", "next")]),
    # the same page ("only OverDue tasks", "colored red to warn of potential overdue maintenance")
    ("computed", "Tasks have a title and a due date. Overdue tasks are shown in red.",
     [("computed", "task", "overdue")]),
    # https://github.com/extropianist/WitB ("role-based access control with Admin and Viewer permissions")
    ("manage", "An inventory app with admin and viewer permissions: admins can add, edit and delete items, "
               "viewers can only look at them.", [("manage", "item", "admin"), ("shared", "item")]),
    # https://www.br.freelancer.com/projects/website-security/private-project-shadow/ ("if a manager they
    # will see all the jobs")
    ("roles", "Jobs have a title and a date. Providers can view, edit and add their own jobs but can never "
              "delete an entry. Managers see all the jobs.", [("roles", ["manager", "provider"])]),
    # freelance-ai.net "Cable & Internet Customer Management System" ("track their monthly payment status")
    ("summary", "Payments have a customer, an amount and a date. Show the total amount paid per month.",
     [("summary", "payment")]),
    # https://talkin.icu/blog/csv-upload-import-inventory-and ("import ... sales transactions simply by
    # uploading a file")
    ("csv_import", "Transactions have an item, an amount and a date. Import transactions by uploading a CSV "
                   "file.", [("csv_import", "transaction")]),
    # https://github.com/victorBuzdugan/ConsumablesTracker ("Anybody can be assigned a list of consumables")
    ("assigned", "An app for household consumables with a name and a quantity. Users log in, and anybody "
                 "can be assigned consumables to keep track of.", [("assigned", "consumable")]),
    # https://blancer.com/?p=149150 ("Administrator is uploading pdf file", "see only those files that
    # are assigned to them")
    ("attachments", "An app with customer accounts. The administrator creates documents with a title and "
                    "uploads a PDF file to each document; customers log in and see only the documents "
                    "assigned to them.", [("attachments", "document"), ("assigned", "document")]),
    # https://atyourservices-site.pages.dev/products/scheduling.html ("public ones are available to all
    # registered accounts")
    ("shared", "Events have a title and a date. Users register and log in. Events are available to all "
               "registered accounts.", [("shared", "event")]),
]

# Failing when the set was written (7 of 17 passed), each with why:
PUBLIC_OPEN = {
    "assigned-0": "'create tasks ... and assign them to users' (a pronoun for the record) is not read as assignment",
    "assigned-1": "'the administrator ... assigns each event to a user' is not read ('assigned users' neither)",
    "assigned-2": "'assign users to projects' (the person as object, the record after 'to') is not read",
    "attachments-5": "'capturing entries' names no record, so no spec is built",
    "capacity-6": "'a signup records the shift, ...' makes no signup record; 'a capacity limit' with no number "
                  "is not read",
    "computed-8": "'Services record the vehicle, ...' makes no service record",
    "manage-3": "'Only managers can update or delete invoices' restricts no adding: `manage` would also stop "
                "the others adding invoices, so no managing role and the clause is not built (trial 2026-12-07e F3)",
    "manage-10": "'viewer' is no role noun (it is read as a record), so no roles and no managing role",
    "roles-11": "'providers' is no role noun; 'Managers see all the jobs' alone names no ordinary role",
    "assigned-14": "'anybody can be assigned consumables' (the person as the passive's subject) is not read",
    "attachments-15": "'uploads a PDF file to each document' makes an 'upload' record, not attachments",
}


@pytest.mark.parametrize("construct, request_text, expects", _params(PUBLIC, PUBLIC_OPEN))
def test_a_public_request_phrasing_yields_its_construct(construct, request_text, expects):
    spec = postprocess(rule_based_spec(request_text))
    for expect in expects:
        _check(spec, expect)
