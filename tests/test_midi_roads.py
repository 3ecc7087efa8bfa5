"""Roads against shoes worked out by hand (midi-rules.md, "Going past the regulation")."""

from shared.baccarat import Winner, resolve_coup
from shared.cards import Rank
from shared.midi.roads import Colour, bead_plate, build_roads, derived_marks, draw

# Natural coups that give each winner: PUNTO 9 vs 0, BANCA 9 vs 0, 9-9 tie.
COUP = {
    "P": resolve_coup([9, 0, 0, 0]),
    "B": resolve_coup([0, 9, 0, 0]),
    "T": resolve_coup([9, 9, 0, 0]),
}
R, B_ = Colour.RED, Colour.BLUE


def coups(text):
    return [COUP[c] for c in text.replace(" ", "")]


def marks(placed):
    return "".join("r" if p.value is R else "b" for p in placed)


# Hand-worked shoe: logical columns B B | P P P | B | P | B×7 | P.
SHOE = "BB PPP B P BBBBBBB P"


def test_big_road_columns_and_dragon_tail():
    roads = build_roads(coups(SHOE))
    assert [len(c) for c in roads.big_road_columns] == [2, 3, 1, 1, 7, 1]
    cells = [(p.col, p.row, p.value.winner.value[0]) for p in roads.big_road]
    assert cells == [
        (0, 0, "b"), (0, 1, "b"),
        (1, 0, "p"), (1, 1, "p"), (1, 2, "p"),
        (2, 0, "b"),
        (3, 0, "p"),
        (4, 0, "b"), (4, 1, "b"), (4, 2, "b"), (4, 3, "b"), (4, 4, "b"), (4, 5, "b"),
        (5, 5, "b"),  # the 7th BANCA turns right along the last row
        (5, 0, "p"),
    ]
    assert roads.big_road[13].logical_col == 5 and roads.big_road[13].logical_row == 7


def test_a_streak_blocked_by_a_dragon_tail_turns_early():
    roads = build_roads(coups(SHOE + "PPPPP"))  # the last PUNTO column grows to 6
    tail = [(p.col, p.row) for p in roads.big_road if p.logical_col == 6]
    assert tail == [(5, 0), (5, 1), (5, 2), (5, 3), (5, 4), (6, 4)]  # (5, 5) is the BANCA tail


def test_derived_roads_by_hand():
    roads = build_roads(coups(SHOE))
    assert marks(roads.big_eye_boy) == "rbbbrbrrrrrb"
    assert marks(roads.small_road) == "bbbrrrrrb"
    assert marks(roads.cockroach_pig) == "brrbrrrb"
    # Drawn like the big road: big eye boy columns r | bbb | r | b | rrrrr | b
    assert [(p.col, p.row) for p in roads.big_eye_boy] == [
        (0, 0), (1, 0), (1, 1), (1, 2), (2, 0), (3, 0), (4, 0), (4, 1), (4, 2), (4, 3), (4, 4), (5, 0)]


def test_what_the_derived_roads_would_show_next():
    roads = build_roads(coups(SHOE))
    # BANCA next: new column 7 → compare columns 6 and 5 (1 vs 7): blue; columns 6 and 4 (1, 1): red;
    # columns 6 and 3 (1, 1): red.
    assert roads.next_if[Winner.BANCA] == {"big_eye_boy": B_, "small_road": R, "cockroach_pig": R}
    # PUNTO next: column 6 row 2 → column 5 has row 2: red; column 4 has row 1 only: blue;
    # column 3 has row 1 only: blue.
    assert roads.next_if[Winner.PUNTO] == {"big_eye_boy": R, "small_road": B_, "cockroach_pig": B_}
    for winner, letter in ((Winner.BANCA, "B"), (Winner.PUNTO, "P")):
        after = build_roads(coups(SHOE + letter))
        for name, colour in roads.next_if[winner].items():
            assert after.derived[name][-1].value is colour


def test_roads_start_only_when_their_columns_exist():
    assert build_roads(coups("B P")).big_eye_boy == []
    assert marks(build_roads(coups("B PP")).big_eye_boy) == "b"  # column 2 row 2: column 1 has row 1 only
    assert marks(build_roads(coups("B P B")).big_eye_boy) == "r"  # column 3 row 1: columns 2 and 1 equal
    assert build_roads(coups("B P B")).small_road == []
    assert build_roads(coups("B P")).next_if[Winner.PUNTO]["big_eye_boy"] is B_
    assert build_roads(coups("B")).next_if[Winner.PUNTO] == {
        "big_eye_boy": None, "small_road": None, "cockroach_pig": None}


def test_ties_at_the_very_start_and_during_the_shoe():
    roads = build_roads(coups("TT"))
    assert roads.big_road == [] and roads.pending_ties == 2 and len(roads.bead_plate) == 2
    roads = build_roads(coups("TT B T P TTT"))
    first, second = roads.big_road
    assert (first.value.ties, second.value.ties) == (3, 3)
    assert roads.pending_ties == 0
    assert roads.counts.tie == 6 and roads.counts.banca == 1 and roads.counts.punto == 1


def test_bead_plate_columns_of_six_with_ties():
    plate = bead_plate(coups("BPTBBPPT"))
    assert [(c.col, c.row) for c in plate] == [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 0), (1, 1)]
    assert plate[2].coup.winner is Winner.TIE


def test_counts_of_naturals_sixes_and_pairs():
    shoe = [
        resolve_coup([Rank.KING, Rank.THREE, Rank.KING, Rank.THREE, Rank.FIVE]),  # BANCA 6 beats 5, both pairs
        resolve_coup([Rank.NINE, Rank.KING, Rank.QUEEN, Rank.JACK]),  # natural, K J is no pair
        resolve_coup([Rank.TEN, Rank.KING, Rank.SEVEN, Rank.SEVEN]),  # 7 stands, 7 stands: tie
    ]
    c = build_roads(shoe).counts
    assert (c.coups, c.banca, c.punto, c.tie) == (3, 1, 1, 1)
    assert (c.naturals, c.banca_sixes, c.punto_pairs, c.banca_pairs) == (1, 1, 1, 1)


def test_draw_generic_turns_when_longer_than_six():
    placed = draw([list(range(9))])
    assert [(p.col, p.row) for p in placed][-4:] == [(0, 5), (1, 5), (2, 5), (3, 5)]


def test_derived_marks_from_positions():
    # Columns of lengths 1, 1, 1: (1,1) (2,1) (3,1). Big eye boy: column 3 row 1 → cols 2,1 equal: red.
    assert derived_marks([(1, 1), (2, 1), (3, 1)], 1) == [R]


def test_a_chopping_shoe_makes_long_red_derived_streaks_that_turn():
    roads = build_roads(coups("BP" * 6))  # twelve columns of one
    assert marks(roads.big_eye_boy) == "r" * 10
    assert marks(roads.small_road) == "r" * 9
    assert marks(roads.cockroach_pig) == "r" * 8
    assert [(p.col, p.row) for p in roads.big_eye_boy][5:] == [(0, 5), (1, 5), (2, 5), (3, 5), (4, 5)]
    assert [(p.col, p.row) for p in roads.big_road][:3] == [(0, 0), (1, 0), (2, 0)]
