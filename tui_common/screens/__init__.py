"""Screens both table apps push: sign-in, enrolment, supervisor panel, recall, notices."""

from tui_common.screens.enrol import EnrolScreen, Enrolment
from tui_common.screens.notice import ConfirmScreen, HelpScreen, NoticeScreen, recovery_notice
from tui_common.screens.recall import RecallScreen
from tui_common.screens.sign_in import SignInScreen
from tui_common.screens.supervisor import (
    SupervisorAction,
    SupervisorField,
    SupervisorPanel,
    SupervisorRequest,
    SupervisorResult,
)

__all__ = [
    "ConfirmScreen",
    "EnrolScreen",
    "Enrolment",
    "HelpScreen",
    "NoticeScreen",
    "RecallScreen",
    "SignInScreen",
    "SupervisorAction",
    "SupervisorField",
    "SupervisorPanel",
    "SupervisorRequest",
    "SupervisorResult",
    "recovery_notice",
]
