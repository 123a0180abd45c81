"""Vietnamese vocabulary for the rule-based spec parser: phrase -> English words, tone normalization.

Pure data plus `normalize_vi`; the phrase table is a dict keyed by syllable tuples (stable order).
"""

from __future__ import annotations

VI_MARKERS = frozenset("ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ")

# Both tone placements exist ("hoá"/"hóa"); the lexicon and the input use the "hoá" style.
_TONE_STYLE = {"óa": "oá", "òa": "oà", "ỏa": "oả", "õa": "oã", "ọa": "oạ", "óe": "oé", "òe": "oè",
               "ỏe": "oẻ", "õe": "oẽ", "ọe": "oẹ", "úy": "uý", "ùy": "uỳ", "ủy": "uỷ", "ũy": "uỹ",
               "ụy": "uỵ"}


def normalize_vi(syllable: str) -> str:
    """One canonical tone placement for a lowercase Vietnamese syllable."""
    if len(syllable) >= 2 and syllable[-2:] in _TONE_STYLE:
        return syllable[:-2] + _TONE_STYLE[syllable[-2:]]
    return syllable


# Vietnamese phrase -> English words ("" drops it). Longest match wins.
_VI_TABLE = """
công việc cần làm=todos|việc cần làm=todos|công việc=tasks|nhiệm vụ=tasks|dự án=projects
sản phẩm=products|nhà cung cấp=suppliers|cuốn sách=books|sách=books|thành viên=members
khách hàng=customers|đơn đặt hàng=orders|đơn hàng=orders|hoá đơn=invoices|ghi chú=notes
danh mục=category|thể loại=categories|công thức nấu ăn=recipes|công thức=recipes
nguyên liệu=ingredients|nhân viên=employees|phòng ban=departments|sinh viên=students
học sinh=students|giáo viên=teachers|lớp học=classes|khoá học=courses|bài học=lessons
bài viết=posts|bài đăng=posts|bình luận=comments|sự kiện=events|cuộc họp=meetings
lịch hẹn=appointments|cuộc hẹn=appointments|bệnh nhân=patients|bác sĩ=doctors
chi tiêu=expenses|khoản chi=expenses|chi phí=expenses|ngân sách=budgets|lượt mượn=loans
phiếu mượn=loans|khoản vay=loans|món ăn=dishes|thực đơn=menus|đặt phòng=bookings|phòng=rooms
bài hát=songs|danh sách phát=playlists|hình ảnh=photos|ảnh=photos|danh bạ=contacts
liên hệ=contacts|câu hỏi=questions|bài kiểm tra=quizzes|mục tiêu=goals|thói quen=habits
nhóm=teams|đội=teams|công ty=companies|hợp đồng=contracts|vé=tickets|lỗi=bugs
tài liệu=documents|tin nhắn=messages|thẻ=tags|đánh giá=reviews|sự cố=issues|kho hàng=inventory
kho=inventory|cửa hàng=store|thư viện=library|trường học=school|nhà hàng=restaurant
khách sạn=hotel|người dùng=users|đăng nhập=login|đăng ký=register|đăng xuất=logout
tài khoản=accounts|xác thực=authentication|mật khẩu=password|bảng điều khiển=dashboard
bảng tổng quan=dashboard|tổng quan=overview|thống kê=stats|báo cáo=reports|hoàn thành=complete
đã xong=done|xong=done|trạng thái=status|đánh dấu=mark|xây dựng=build|tạo=create|làm=make
cho tôi=me|tôi=me|giúp=help|ứng dụng di động=mobile app|ứng dụng=app|phần mềm=software
hệ thống=system|trang web=website|trang=page|giao diện=interface|quản lý=management
theo dõi=tracking|thêm=add|xem=view|chỉnh sửa=edit|sửa=edit|cập nhật=update|xoá=delete
liệt kê=list|danh sách=list|đơn giản=simple|người=people|có thể=can|có=with|với=with|và=and
hoặc=or|cho=for|của chúng=their|của=of the|trong=in|thuộc về=belongs to|thuộc=belongs to
mỗi=each|các=|những=|một=a|nhiều=many|được=|để=to|mà=that|bao gồm=with|gồm=with
tiêu đề=title|tên=name|mô tả=description|hạn chót=deadline|ngày hết hạn=due date|ngày=date
giá=price|số lượng=quantity|độ ưu tiên=priority|mức ưu tiên=priority|trò chơi=game
trò chuyện=chat|nhắn tin=messaging|thời gian thực=real-time|di động=mobile
học máy=machine learning|trí tuệ nhân tạo=AI|gợi ý=recommendations|đề xuất=recommendations
dự đoán=predictions|thanh toán=payment processing|triển khai=deployment
máy tính để bàn=desktop|xe=vehicles|đơn=orders|phim=movies|qua=via|theo=by|hay=or|khi=when
sau=after|bằng=with|diễn viên=actors
khoản thu nhập=incomes|thu nhập=income|khoản thu=incomes|quản lí=management|cá nhân=personal
hỗ trợ=support|ghi chép=record|ghi nhận=record|tính năng=features|chức năng=features|chính=main
cho phép=allow|thông tin=information|như=like|hiển thị=display|về=about|biểu đồ=charts
số liệu=data|số tiền=amount|thời gian=time|nếu có=optional|tìm kiếm=search|tóm tắt=summary
số phòng=room number|loại phòng=room type|sức chứa=capacity|mã số sinh viên=student number
mã sinh viên=student number|mã số=code|lớp=class|ngày sinh=birth date|năm sinh=birth year
số điện thoại=phone|điện thoại=phone|địa chỉ=address|giới tính=gender|quê quán=hometown
họ và tên=full name|họ tên=full name|họ=last name|thấp=low|trung bình=medium|cao=high|khẩn cấp=urgent
loại=type|ban đầu=initial|còn trống=vacant|đã thuê=rented|hiện có=existing|đang ở=
cơ sở dữ liệu=database|trình duyệt=browser|lưu trữ=storage|lưu=save|dữ liệu=data|trên=on|phía máy khách=client-side
ký túc xá=dormitory|chi tiết=details|chi=expenses|của mình=their|tính=|sử dụng=use|công nghệ=technology|thông báo=announcements|mô-đun=modules
"""


def _vi_lexicon() -> dict[tuple[str, ...], str]:
    table: dict[tuple[str, ...], str] = {}
    for entry in _VI_TABLE.replace("\n", "|").split("|"):
        if "=" in entry:
            phrase, english = entry.split("=", 1)
            table[tuple(normalize_vi(s) for s in phrase.split())] = english.strip()
    return table


VI_LEXICON = _vi_lexicon()
VI_MAX_WORDS = max(len(k) for k in VI_LEXICON)
