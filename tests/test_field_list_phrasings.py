"""Field-list phrasings of the rule-based spec (#14): records named inside a field list, counted
plurals with a relative clause, a detail noun shared by its modifiers, "information about <record>"
and words whose kind depends on the record. Each request is written for the rule, not taken from
the dataset."""

from __future__ import annotations

from harness.offline.spec import parse_request


def fields(spec, entity: str) -> dict[str, str]:
    """field name -> kind of one entity of the spec."""
    return {f.name: f.kind for f in spec.entity(entity).fields}


def columns(spec, entity: str) -> dict[str, str]:
    """JSON key (column ident) -> kind of one entity of the spec."""
    return {f.ident: f.kind for f in spec.entity(entity).fields}


def names(spec) -> list[str]:
    return [e.name for e in spec.data_model]


def test_a_record_named_inside_a_field_list_does_not_end_the_list_and_stays_a_record():
    spec = parse_request("An app to manage recipes. Show the recipe details, including ingredients, steps, "
                         "and an image.")
    assert {"steps": "long_text", "image": "url"}.items() <= fields(spec, "recipe").items()
    assert "ingredient" in names(spec) and "ingredient" not in fields(spec, "recipe")


def test_the_list_of_records_with_an_aside_is_skipped_and_the_fields_after_it_are_read():
    spec = parse_request("An app to manage recipes. Display a recipe card containing the title, the list of "
                         "ingredients (including their amounts), and the preparation steps.")
    assert fields(spec, "recipe")["preparation steps"] == "long_text"
    assert "amount" in fields(spec, "ingredient")


def test_number_of_a_plural_with_a_relative_clause_is_one_integer_field():
    spec = parse_request("An app to manage recipes with a title, number of people it serves and a "
                         "difficulty level (easy, medium, hard).")
    recipe = spec.entity("recipe")
    assert fields(spec, "recipe")["number of people it serves"] == "integer"
    level = next(f for f in recipe.fields if f.name == "difficulty level")
    assert (level.kind, level.enum_values) == ("enum", ["easy", "medium", "hard"])


def test_a_detail_noun_after_a_list_of_modifiers_is_shared_by_each_of_them():
    spec = parse_request("Renters fill out a profile with their personal, financial and references information.")
    assert fields(spec, "profile") == {"personal information": "long_text",
                                       "financial information": "long_text", "references": "long_text"}
    assert names(spec) == ["profile"]   # "references" is the profile's, not a record type
    customers = parse_request("Manage customers with a name, contact and billing information.")
    assert list(fields(customers, "customer")) == ["name", "contact information", "billing information"]


def test_information_about_a_record_is_a_long_text_field_of_that_record():
    spec = parse_request("Owners can post properties including information about the property.")
    assert fields(spec, "property")["information"] == "long_text"
    notes = parse_request("An app to manage patients. Doctors keep notes on each patient.")
    assert fields(notes, "patient")["notes"] == "long_text"


def test_steps_are_instructions_of_a_recipe_but_a_count_of_a_walk():
    recipe = parse_request("Track recipes with a title and steps.")
    walk = parse_request("Track walks with a date and steps.")
    assert fields(recipe, "recipe")["steps"] == "long_text"
    assert fields(walk, "walk")["steps"] == "integer"


VI_ROOMS = ("Quản lý phòng và sinh viên. Thêm phòng: Ghi nhận thông tin phòng (số phòng, loại phòng, sức chứa). "
            "Theo dõi trạng thái phòng (còn trống, đã thuê). "
            "Thêm sinh viên: Ghi nhận thông tin (tên, mã số sinh viên, ngày sinh, số phòng).")


def test_vietnamese_field_words_are_fields_and_a_status_list_keeps_the_users_words():
    spec = parse_request(VI_ROOMS)
    assert columns(spec, "room") == {"room_number": "short_text",
                                     "room_type": "short_text", "capacity": "integer", "status": "enum"}
    # labelled in the user's words; the JSON keys and columns are the English ones
    assert fields(spec, "room") == {"số phòng": "short_text", "loại phòng": "short_text",
                                    "sức chứa": "integer", "trạng thái": "enum"}
    room = spec.entity("room")   # states a room is in (not a `type`, not a one-way workflow)
    assert next(f.enum_values for f in room.fields if f.ident == "status") == ["còn trống", "đã thuê"]
    assert (room.workflow, room.has_status) == ([], False)
    assert {"mã số sinh viên": "short_text", "ngày sinh": "date"}.items() <= fields(spec, "student").items()
    assert {"student_number": "short_text", "birth_date": "date"}.items() <= columns(spec, "student").items()
    assert all(c.status == "mapped" for c in spec.clauses)


def test_a_field_named_after_another_records_key_is_a_reference_to_it():
    spec = parse_request("An app to manage rooms and students. Each room has a room number and a capacity. "
                         "Students have a name and a room number.")
    ref = next(f for f in spec.entity("student").fields if f.name == "room number")
    assert (ref.kind, ref.ref) == ("reference", "room")
    assert fields(spec, "room")["room number"] == "short_text"   # the room's own number stays text
    assert columns(parse_request(VI_ROOMS), "student")["room_number"] == "reference"


def test_a_record_heading_before_information_in_parentheses_owns_the_list():
    spec = parse_request("An app to manage students. Add student: record information (name, code, birth date).")
    assert fields(spec, "student") == {"name": "short_text", "code": "short_text", "birth date": "date"}


def test_a_display_verb_at_the_start_of_a_parenthesised_list_is_not_the_end_of_it():
    spec = parse_request("An app to manage students. View the list of students (showing name, code and class).")
    assert list(fields(spec, "student")) == ["name", "code", "class"]


def test_a_comma_list_under_a_line_naming_a_records_information_is_that_records_fields():
    spec = parse_request("An app to manage recipes.\n- List of all the recipes, with some key information in "
                         "the table:\n-- Recipe ID, Brand (shown as a logo), a set of tags (some examples are: "
                         "asian, bbq) that are linked to a recipe, the cooking time, the main ingredient (meat, "
                         "chicken, vegetarian etc), and an average rating on a 1-100 scale.")
    recipe = spec.entity("recipe")
    assert {"brand": "short_text", "cooking time": "integer",
            "main ingredient": "enum", "average rating": "rating"}.items() <= fields(spec, "recipe").items()
    assert "recipe id" not in fields(spec, "recipe")   # the recipe's own id (D5), no field of its own
    by_name = {f.name: f for f in recipe.fields}
    assert by_name["main ingredient"].enum_values == ["meat", "chicken", "vegetarian"]   # no "etc"
    assert (by_name["average rating"].min_value, by_name["average rating"].max_value) == (1, 100)


def test_a_picture_someone_sees_is_a_url_field_of_the_record_it_shows_but_an_upload_is_not():
    spec = parse_request("An app to manage recipes with a title. Users can see a photo showing what the dish "
                         "looks like.")
    assert fields(spec, "recipe")["photo"] == "url"
    plant = parse_request("An app to manage plants and gardens. Show a small picture of the plant on each row.")
    assert fields(plant, "plant")["picture"] == "url" and "picture" not in fields(plant, "garden")
    upload = parse_request("An app to manage products with a name. Users can upload a photo of the product.")
    assert "photo" not in fields(upload, "product")   # a file upload is not a link field


def test_yes_no_values_make_a_boolean_not_a_two_word_enum():
    spec = parse_request("Track expenses. Expense fields: amount, date, category (food, rent, travel), paid (yes/no).")
    assert {"category": "enum", "paid": "boolean"}.items() <= fields(spec, "expense").items()


def test_a_word_that_can_be_a_column_is_a_record_when_a_column_list_follows_its_colon():
    spec = parse_request("An inventory app.\n- Product: name, price, stock quantity\n- Supplier: name, email, phone")
    assert fields(spec, "supplier") == {"name": "short_text", "email": "email", "phone": "phone"}
    values = parse_request("Track expenses with an amount and a category: food, rent, travel.")
    assert "category" not in names(values)


def test_a_record_that_stores_its_fields_and_whether_it_is_something():
    spec = parse_request("An app for invoices. Invoices store a number, a total and whether it is paid.")
    assert fields(spec, "invoice") == {"number": "short_text", "total": "money",
                                       "paid": "boolean"}
    tasks = parse_request("An app for tasks. Tasks should store a title, a due date, and whether it is done.")
    assert tasks.entity("task").has_status and "done" not in fields(tasks, "task")   # done is the status
    users = parse_request("An app where users store notes.")
    assert "user" not in names(users)


def test_for_each_record_record_its_fields_with_of_phrases_periods_and_verbs_before_a_date():
    spec = parse_request("A gym app. For each member record the name, membership type (basic, premium), join "
                         "date, date of birth, method of payment, loyalty points and monthly fee.")
    assert fields(spec, "member") == {
        "name": "short_text", "membership type": "enum", "join date": "date", "date of birth": "date",
        "method of payment": "short_text", "loyalty points": "integer", "monthly fee": "money"}


def test_a_participle_aside_after_a_record_lists_its_fields():
    spec = parse_request("Users can track workouts, recording the exercise, duration in minutes, calories burned "
                         "and the date.")
    assert fields(spec, "workout") == {"exercise": "short_text", "duration": "integer",
                                       "calories": "integer", "date": "date"}
    assert names(spec) == ["workout"]


def test_first_and_last_name_are_fields_and_the_first_name_is_the_display_field():
    spec = parse_request("Employees should have a first name, last name, hire date, salary and whether they "
                         "are active.")
    employee = spec.entity("employee")
    assert [(f.name, f.kind, f.required) for f in employee.fields] == [
        ("first name", "short_text", True), ("last name", "short_text", False), ("hire date", "date", False),
        ("salary", "money", False), ("active", "boolean", False)]
    contact = parse_request("Add a contact with details like first name, last name, phone and email.")
    assert list(fields(contact, "contact")) == ["first name", "last name", "phone", "email"]


def test_includes_and_have_colon_introduce_fields_and_a_status_inside_the_list_does_not_end_it():
    order = parse_request("Each order includes a customer name, an order date, a delivery address and a total price.")
    assert list(fields(order, "order")) == ["customer name", "order date", "delivery address", "total price"]
    leads = parse_request("Build a CRM. Leads have: name, company, email, phone, status (new, contacted, lost), "
                          "estimated value.")
    assert list(fields(leads, "lead")) == ["name", "company", "email", "phone", "estimated value"]
    assert leads.entity("lead").workflow == ["new", "contacted", "lost"]


def test_values_listed_right_after_a_column_are_its_enum_and_a_yes_no_aside_makes_a_boolean():
    for text in ("Tasks with a title and a priority of low, medium or high.",
                 "Tasks with a title and priority low/medium/high."):
        task = parse_request(text).entity("task")
        assert next(f.enum_values for f in task.fields if f.name == "priority") == ["low", "medium", "high"], text
    plain = parse_request("Tasks with a title, priority and a due date.")
    assert list(fields(plain, "task")) == ["title", "priority", "due date"]   # no values: no enum
    books = parse_request("Track books with a title and read (true/false).")
    assert fields(books, "book")["read"] == "boolean"


def test_photos_in_a_field_list_are_a_photo_link_not_a_record_in_english_and_vietnamese():
    spec = parse_request("Products with photos, a name and a price.")
    assert names(spec) == ["product"] and fields(spec, "product")["photo"] == "url"
    vi = parse_request("Quản lý sản phẩm gồm tên, giá, số lượng, hình ảnh và mô tả.")
    assert names(vi) == ["product"] and columns(vi, "product")["photo"] == "url"
    assert names(parse_request("An app to manage photos and albums.")) == ["album", "photo"]   # records stay


def test_vietnamese_person_fields_and_an_enum_in_the_users_words():
    spec = parse_request("Ứng dụng quản lý sinh viên: họ tên, ngày sinh, giới tính, địa chỉ, số điện thoại, email.")
    assert columns(spec, "student") == {"full_name": "short_text", "birth_date": "date", "gender": "short_text",
                                        "address": "long_text", "phone": "phone", "email": "email"}
    assert list(fields(spec, "student")) == ["họ tên", "ngày sinh", "giới tính", "địa chỉ", "số điện thoại",
                                             "email"]
    tasks = parse_request("Quản lý công việc với tiêu đề, hạn chót, độ ưu tiên (thấp, trung bình, cao).")
    priority = next(f for f in tasks.entity("task").fields if f.ident == "priority")
    assert (priority.kind, priority.enum_values) == ("enum", ["thấp", "trung bình", "cao"])


def test_fields_named_before_of_each_record_belong_to_that_record():
    spec = parse_request("Users can record the date and amount of each expense.")
    assert fields(spec, "expense") == {"date": "date", "amount": "money"}
    book = parse_request("Users input the title, author and year of a book.")
    assert fields(book, "book") == {"title": "short_text", "author": "short_text", "year": "integer"}
    both = parse_request("An app for expenses. Show the date and the amount of each expense.")
    assert list(fields(both, "expense")) == ["date", "amount"]
    search = parse_request("Implement a search bar where users can type the name of a recipe.")
    assert list(fields(search, "recipe")) == ["name"]   # "type" is the verb, not part of the field


def test_a_count_or_a_picture_of_something_is_no_genitive_field():
    counted = parse_request("An app to manage tasks. Show the number of tasks.")
    assert "number" not in fields(counted, "task")
    dish = parse_request("An app to manage recipes with a title. There is a small picture of the dish on each row.")
    assert names(dish) == ["recipe"] and fields(dish, "recipe")["picture"] == "url"


def test_a_vietnamese_request_gets_a_vietnamese_app_and_an_english_one_an_english_app():
    assert parse_request(VI_ROOMS).language == "vi"   # interface words of the pages in the user's language
    assert parse_request("Ứng dụng việc cần làm đơn giản").language == "vi"   # the fixed Todo spec too
    assert parse_request("An app to manage rooms with a capacity.").language == "en"


def test_a_qualified_status_adds_no_column_named_after_its_qualifier_bug():
    """"Orders have a total amount and a payment status (paid, pending, refunded)" gave the order a
    `payment` money column beside its status; "a delivery status (shipped, pending)" a `delivery`
    text column. The words before "status" name the record's status: no column of their own."""
    spec = parse_request("Build an order tracking app with login. Orders have a total amount and a payment "
                         "status (paid, pending, refunded).")
    assert fields(spec, "order") == {"total amount": "money"}
    assert spec.entity("order").workflow == ["paid", "pending", "refunded"]
    spec = parse_request("Build an order tracking app with login. Orders have a delivery status (shipped, "
                         "pending), a total amount and a note.")
    assert fields(spec, "order") == {"total amount": "money", "note": "long_text"}
    assert spec.entity("order").workflow == ["shipped", "pending"]
    spec = parse_request("Build an order tracking app with login. Orders have a total amount and a payment status.")
    assert fields(spec, "order") == {"total amount": "money"}
    assert spec.entity("order").has_status


def test_limits_caps_and_quotas_are_numeric_columns_not_dropped_or_text_bug():
    """"Budgets have a category, a monthly limit and a spending cap" kept only the category (the clause
    was reported not built); "a maximum quota" was a 200-character text column."""
    spec = parse_request("Build a budget app. Budgets have a category, a monthly limit and a spending cap.")
    assert fields(spec, "budget") == {"category": "short_text", "monthly limit": "decimal",
                                      "spending cap": "money"}
    assert [c.status for c in spec.clauses][-1] == "mapped"
    spec = parse_request("Build a storage app. Each plan has a name, a maximum quota and a price.")
    assert fields(spec, "plan") == {"name": "short_text", "maximum quota": "integer", "price": "money"}


def test_an_app_named_after_its_records_is_built_when_the_record_word_is_also_a_field_word_bug():
    """"Build a budget tracker with login. Budgets have ..." failed its build: "budget" is also a
    column word (a project's budget), so "a budget tracker" was left not built ("no offline rule
    understands budget") though the request declares budgets as records."""
    spec = parse_request("Build a budget tracker with login. Budgets have a category and an amount.")
    assert names(spec) == ["budget"]
    assert [c.status for c in spec.clauses] == ["mapped", "mapped"]


def test_a_number_of_sets_is_one_integer_column_not_a_number_text_column_bug():
    """"Exercises have a name and a number of sets" gave a `number` text column: "sets" is a generic
    word elsewhere ("a set of attributes"), so the count stopped before what it counts."""
    spec = parse_request("A workout tracker with login. Workouts contain exercises, exercises have a name and "
                         "a number of sets, with cascade deletes throughout.")
    assert fields(spec, "exercise") == {"name": "short_text", "number of sets": "integer"}
    spec = parse_request("A task app. Tasks have a number of fields like title and due date.")
    assert fields(spec, "task") == {"title": "short_text", "due date": "date"}   # still an intro there


def test_a_default_value_asked_in_an_aside_is_reported_not_built_not_swallowed_bug():
    """A public inventory PRD: "quantity (default: 0 if not provided), reorder level (default: 10 if
    not provided)". The field reader took every parenthetical as a remark: the clause was "built"
    while no default exists (a missing quantity stayed null), and "reorder level" was text."""
    spec = parse_request("An inventory app with login. Products have a product name, SKU, quantity (default: 0 "
                         "if not provided), reorder level (default: 10 if not provided) and price.")
    assert fields(spec, "product") == {"name": "short_text", "sku": "short_text", "quantity": "integer",
                                       "reorder level": "integer", "price": "money"}
    clause = spec.clauses[-1]
    assert clause.status == "not_built" and clause.reason == 'not built: "default 0", "default 10"'   # the accounting's words (D7)
    spec = parse_request("A shop with login. Products have a name, a price (e.g. 9.99) and a stock level.")
    assert [c.status for c in spec.clauses] == ["mapped", "mapped"]   # an example is no ask
