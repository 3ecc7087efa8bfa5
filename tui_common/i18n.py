"""The interface speaks Spanish by default and English with ``--lang en``.

Every user-facing string of the apps lives in ``CATALOG`` with both languages, so a
missing translation is impossible by construction; ``tests/test_i18n.py`` also checks that
every key the code asks for exists. Engine messages already carry both texts
(``ConsoleError.message(lang)``, the engine's prompts).
"""

from __future__ import annotations

from shared.errors import InputError

LANGS = ("es", "en")

CATALOG: dict[str, tuple[str, str]] = {
    # key: (Spanish, English)
    "training_banner": ("ENTRENAMIENTO", "TRAINING"),
    "quit": ("salir", "quit"),
    "quit_confirm": ("Hay una jugada en curso. ¿Salir igual? (s/n)", "A round is in progress. Quit anyway? (y/n)"),
    "supervisor": ("supervisor", "supervisor"),
    "recall": ("historial", "recall"),
    "help": ("ayuda", "help"),
    "undo": ("deshacer", "undo"),
    "repeat_bets": ("repetir apuestas", "repeat bets"),
    "confirm": ("confirmar", "confirm"),
    "cancel": ("cancelar", "cancel"),
    # --- tui_common: widgets both apps share (helper midi-tui) ---
    "key_help": ("F1 ayuda", "F1 help"),
    "key_supervisor": ("F2 supervisor", "F2 supervisor"),
    "key_recall": ("F3 historial", "F3 recall"),
    "key_quit": ("ctrl+q salir", "ctrl+q quit"),
    "quit_title": ("Salir de la consola", "Leave the console"),
    "yes_no_keys": ("s sí · n no", "y yes · n no"),
    "esc_close": ("esc cerrar", "esc close"),
    "enter_accept": ("enter aceptar · esc cancelar", "enter accept · esc cancel"),
    "signin_title": ("Apertura de turno — croupier", "Open a shift — croupier"),
    "signin_help": ("Ingrese su número de empleado y su PIN.", "Enter your staff ID and PIN."),
    "staff_id": ("Número de empleado", "Staff ID"),
    "pin": ("PIN", "PIN"),
    "pin_repeat": ("Repetir PIN", "Repeat PIN"),
    "name": ("Nombre", "Name"),
    "signin_button": ("Abrir turno", "Open shift"),
    "signed_in": ("Turno abierto: croupier {staff_id}", "Shift opened: croupier {staff_id}"),
    "enrol_title": ("Primer inicio de la mesa — alta del supervisor", "First start of this table — enrol the supervisor"),
    "enrol_help": (
        "Esta mesa no tiene personal. Dé de alta al primer supervisor (jefe de mesa).",
        "This table has no staff yet. Enrol the first supervisor (pit boss).",
    ),
    "enrol_croupier_title": ("Alta de croupier", "Enrol a croupier"),
    "enrol_croupier_help": (
        "Dé de alta al croupier que abrirá el turno; lo autoriza el supervisor {staff_id}.",
        "Enrol the croupier who will open the shift; authorised by supervisor {staff_id}.",
    ),
    "enrol_button": ("Dar de alta", "Enrol"),
    "enrolled": ("Alta registrada: {role} {staff_id}", "Enrolled: {role} {staff_id}"),
    "pins_differ": ("Los dos PIN no coinciden", "The two PINs differ"),
    "field_required": ("Falta completar: {field}", "Missing: {field}"),
    "supervisor_title": ("Supervisor — acción sobre la mesa", "Supervisor — table action"),
    "supervisor_action": ("Acción", "Action"),
    "supervisor_reason": ("Motivo (obligatorio)", "Reason (required)"),
    "supervisor_none": ("No hay acciones de supervisor posibles ahora.", "No supervisor action is possible now."),
    "supervisor_submit": ("Autorizar", "Authorise"),
    "supervisor_done": ("Supervisor {staff_id}: {action}", "Supervisor {staff_id}: {action}"),
    "recall_title": ("HISTORIAL — no es la jugada en curso", "RECALL — not the live game"),
    "recall_empty": ("El historial está vacío.", "The journal holds no rounds yet."),
    "recall_round": ("Jugada {round_id}", "Round {round_id}"),
    "recall_outside": ("Fuera de jugada", "Outside any round"),
    "recall_keys": ("↑↓ PgUp PgDn desplazar · esc volver a la mesa", "↑↓ PgUp PgDn scroll · esc back to the table"),
    "recovery_title": ("Jugada recuperada", "Round recovered"),
    "recovery_text": (
        "La consola se cerró con la jugada {round_id} abierta. Se restauró desde el registro: "
        "apuestas, cartas y decisiones tal como estaban. Verifique la mesa y continúe.",
        "The console closed with round {round_id} open. It was restored from the journal: "
        "bets, cards and decisions as they were. Check the table and carry on.",
    ),
    "help_title": ("Teclas", "Keys"),
    "amount_prompt": ("Importe", "Amount"),
    "card_prompt": ("Carta", "Card"),
}


def t(key: str, lang: str = "es", /, **values: object) -> str:
    """The text for ``key`` in ``lang``, with ``{name}`` fields filled from ``values``."""
    es, en = CATALOG[key]
    text = en if lang == "en" else es
    return text.format(**values) if values else text


def input_error(key: str, /, **values: object) -> InputError:
    """An ``InputError`` carrying both languages of a catalog entry (for refusals the UI itself makes)."""
    return InputError(t(key, "es", **values), t(key, "en", **values))
