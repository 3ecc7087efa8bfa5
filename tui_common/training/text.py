"""The training screens' own strings, Spanish and English (engine texts carry both already)."""

from __future__ import annotations

TEXT: dict[str, tuple[str, str]] = {
    "game_madero": ("Madero Poker Bonus", "Madero Poker Bonus"),
    "game_midi": ("Midi Punto y Banca", "Midi Punto y Banca"),
    "signin_title": ("Entrenamiento — ¿quién practica?", "Training — who is practising?"),
    "signin_help": (
        "Número de empleado o nombre del alumno. El entrenamiento no toca ninguna mesa real.",
        "Staff ID or the trainee's name. Training never touches a live table.",
    ),
    "trainee": ("Alumno", "Trainee"),
    "signin_empty": ("Escriba un número de empleado o un nombre", "Type a staff ID or a name"),
    "pick_title": ("Elija el ejercicio", "Pick a drill"),
    "pick_keys": ("↑↓ elegir · enter empezar · h historial · esc salir",
                  "↑↓ choose · enter start · h history · esc quit"),
    "seed": ("semilla {seed}", "seed {seed}"),
    "no_seed": ("sin semilla", "no seed"),
    "progress": ("{title} {n}/{total} · pregunta {q}/{qs}", "{title} {n}/{total} · question {q}/{qs}"),
    "running": ("aciertos {right}/{done}", "right {right}/{done}"),
    "selected": ("elegidas: {cards}", "chosen: {cards}"),
    "typed": ("importe: {amount}", "amount: {amount}"),
    "drill_keys_choice": ("tecla de la respuesta · esc terminar", "answer key · esc finish"),
    "drill_keys_payout": ("c cobrar · d devolver · importe y enter · retroceso borra · esc terminar",
                          "c collect · d return · amount and enter · backspace deletes · esc finish"),
    "drill_keys_cards": ("1–7 marcar/desmarcar · enter confirmar 5 cartas · esc terminar",
                         "1–7 mark/unmark · enter confirms 5 cards · esc finish"),
    "need_five": ("Marque exactamente 5 cartas", "Mark exactly 5 cards"),
    "unreadable": ("Respuesta ilegible: «{text}»", "Unreadable answer: “{text}”"),
    "first_question": ("Responda con las teclas indicadas; cada respuesta se corrige al instante.",
                       "Answer with the keys shown; each answer is graded at once."),
    "score_title": ("Resultado — {drill}", "Score card — {drill}"),
    "accuracy": ("Aciertos: {right}/{questions} ({pct} %)", "Accuracy: {right}/{questions} ({pct} %)"),
    "median": ("Mediana por decisión: {seconds} s", "Median per decision: {seconds} s"),
    "mistakes": ("Errores por tipo", "Mistakes by kind"),
    "no_mistakes": ("Sin errores.", "No mistakes."),
    "saved": ("Guardado en el historial de {trainee}.", "Stored in {trainee}'s history."),
    "score_keys": ("r repetir (misma semilla) · n otro ejercicio · h historial · q salir",
                   "r repeat (same seed) · n another drill · h history · q quit"),
    "history_title": ("Progreso de {trainee}", "Progress of {trainee}"),
    "history_summary": ("{sessions} sesiones · aciertos: primera {first} % → última {last} %",
                        "{sessions} sessions · accuracy: first {first} % → last {last} %"),
    "history_empty": ("Todavía no hay sesiones.", "No sessions yet."),
    "history_keys": ("↑↓ desplazar · esc volver", "↑↓ scroll · esc back"),
    "col_when": ("Fecha", "Date"),
    "col_drill": ("Ejercicio", "Drill"),
    "col_decision": ("Decisión", "Decision"),
    "col_wrong": ("Errores", "Wrong"),
    "col_asked": ("Preguntas", "Asked"),
    "col_questions": ("Preg.", "Qs"),
    "col_accuracy": ("Aciertos", "Accuracy"),
    "col_median": ("Mediana s", "Median s"),
    "col_top_mistake": ("Error frecuente", "Top mistake"),
    "col_seed": ("Semilla", "Seed"),
}


def tr(key: str, lang: str = "es", /, **values: object) -> str:
    es, en = TEXT[key]
    text = en if lang == "en" else es
    return text.format(**values) if values else text
