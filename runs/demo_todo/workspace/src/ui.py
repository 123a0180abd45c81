"""The look of the generated pages (copied verbatim by the generator): one small stylesheet, the
page layout and the interface words in the request's language ("en" or "vi")."""

from html import escape

from fastapi.responses import HTMLResponse

STYLESHEET = """
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 0 1rem 2rem;
       color: #1f2933; background: #f7f7f9; }
nav { display: flex; flex-wrap: wrap; gap: .75rem; padding: .75rem 0; border-bottom: 1px solid #d9dce1; }
nav a { color: #1d4ed8; text-decoration: none; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
section, table { background: #fff; }
section { padding: .5rem 1rem 1rem; border: 1px solid #e3e5e8; border-radius: 6px; margin: 1rem 0; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
th, td { border-bottom: 1px solid #e3e5e8; padding: .35rem .5rem; text-align: left; vertical-align: top; }
form { margin: .5rem 0; } form.inline { display: inline; margin: 0; }
label { display: block; margin: .35rem 0; } label.check { display: inline-block; margin-right: 1rem; }
input, select, textarea { font: inherit; padding: .25rem .4rem; max-width: 100%; }
button { font: inherit; padding: .25rem .8rem; cursor: pointer; }
.error { color: #b91c1c; } .muted { color: #6b7280; }
@media (max-width: 40rem) { table { display: block; overflow-x: auto; } th, td { white-space: nowrap; }
                             input, select, textarea { width: 100%; box-sizing: border-box; } }
""".strip()

LABELS = {
    "en": {"home": "Home", "dashboard": "Dashboard", "add": "Add", "save": "Save", "edit": "Edit",
           "delete": "Delete", "complete": "Complete", "search": "Search", "filter": "Filter",
           "any": "any", "nothing": "Nothing yet.", "actions": "Actions", "records": "Records",
           "total": "Total", "by_status": "By status", "login": "Log in", "logout": "Log out",
           "register": "Create an account", "username": "Username", "password": "Password",
           "signed_in": "Signed in as", "not_found": "Not found", "yes": "yes", "no": "no",
           "refresh": "Refresh", "status": "Status"},
    "vi": {"home": "Trang chủ", "dashboard": "Bảng điều khiển", "add": "Thêm", "save": "Lưu",
           "edit": "Sửa", "delete": "Xóa", "complete": "Hoàn thành", "search": "Tìm kiếm",
           "filter": "Lọc", "any": "tất cả", "nothing": "Chưa có dữ liệu.", "actions": "Thao tác",
           "records": "Bản ghi", "total": "Tổng", "by_status": "Theo trạng thái",
           "login": "Đăng nhập", "logout": "Đăng xuất", "register": "Tạo tài khoản",
           "username": "Tên đăng nhập", "password": "Mật khẩu", "signed_in": "Đã đăng nhập:",
           "not_found": "Không tìm thấy", "yes": "có", "no": "không", "refresh": "Làm mới",
           "status": "Trạng thái"},
}


def words(lang: str) -> dict[str, str]:
    """The interface words of `lang` (English for an unknown language)."""
    return LABELS.get(lang, LABELS["en"])


def layout(title: str, body: str, *, app_title: str, nav: tuple[tuple[str, str], ...], lang: str,
           status_code: int = 200) -> HTMLResponse:
    """A whole HTML page: the stylesheet link, the navigation, the title and `body` (already
    escaped HTML)."""
    links = " ".join(f'<a href="{escape(route)}">{escape(label)}</a>' for route, label in nav)
    return HTMLResponse(
        f'<!doctype html><html lang="{escape(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<link rel="stylesheet" href="/style.css"><title>{escape(title)} - {escape(app_title)}</title>'
        f"</head><body><nav>{links}</nav><h1>{escape(title)}</h1>{body}</body></html>",
        status_code=status_code,
    )
