"""Retrieval on four more unseen memories, aimed at what ``benchmarks.unseen_memories`` left
out: questions about a thing, role, place or event the memory lacks but that share words
with what it holds ("Who leads the mobile team?" beside facts about the payments team),
answers phrased far from their question (synonyms, indirect references), history (a
superseded, expired or not-yet-valid belief asked at an ``as_of`` inside and outside its
validity) and projects (a belief learned in another project carries, attributed, unless
it is local). The memories: a freelance illustrator's work, a company's engineering
organisation, a family's trip to Japan, and a developer's two projects.

Usage::

    RECALLFLOW_BENCH_HOME=... python -m benchmarks.unseen_gaps [--embedder minilm]
        [--half held] [--detail]

Each question falls in the tuning or the held half by the seeded hash of
``benchmarks.unseen_memories`` (over the question with its ``as_of`` and project), fixed
before any tuning. Besides that module's figures, per half: the questions with a belief
that must not render (out of validity at the ``as_of``, or local to another project) that
rendered one, and the blocks that showed another project's belief without its origin.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from benchmarks.unseen_memories import Asked, Probe, Question, ask, main


def on(day: str) -> datetime:
    """Midnight UTC of an ISO day."""
    return datetime.fromisoformat(day).replace(tzinfo=UTC)


def belief(
    memory: str, key: str, statement: str, subject: str, *entities: str, **fields: Any
) -> tuple[str, dict[str, Any]]:
    """A belief's name and draft: said by the user, user-scoped unless ``fields`` say; one
    with a ``valid_from`` is recorded then (at the latest a month before this probe's day)."""
    draft: dict[str, Any] = {
        "id": f"gap-{memory}-{key}",
        "statement": statement,
        "subject": subject,
        "entities": list(entities),
        "scope": "user",
        "confidence": 0.9,
        "source_authority": "user_stated",
    }
    draft.update(fields)
    if "valid_from" in fields:
        # Learned when it became true (a change announced ahead, a month before), so a read
        # at a past ``as_of`` (system time the same by default) knows it as it was then.
        draft.setdefault("recorded_at", min(fields["valid_from"], on("2026-11-01")))
    if "supersedes" in draft:
        draft["supersedes"] = f"gap-{memory}-{draft['supersedes']}"
    return key, draft


def _studio() -> dict[str, dict[str, Any]]:
    m = "studio"
    return dict(
        [
            belief(
                m,
                "s1old",
                "My day rate for editorial illustration is 380 euros.",
                "day rate",
                valid_from=on("2025-01-01"),
            ),
            belief(
                m,
                "s1",
                "My day rate for editorial illustration is 450 euros.",
                "day rate",
                valid_from=on("2026-07-01"),
                supersedes="s1old",
            ),
            belief(
                m,
                "s1next",
                "From March 2027 my editorial day rate goes up to 500 euros.",
                "day rate",
                valid_from=on("2027-03-01"),
                supersedes="s1",
            ),
            belief(
                m,
                "s2",
                "I draw in Procreate on an iPad Pro and finish colours in Affinity Designer.",
                "drawing tools",
                "Procreate",
                "Affinity Designer",
            ),
            belief(
                m,
                "s3",
                "Henrike Vogel at Kranich Verlag is art director for the children's book series.",
                "art director",
                "Henrike Vogel",
                "Kranich Verlag",
            ),
            belief(
                m,
                "s4",
                "The picture book 'The Lantern Fox' goes to the printer on 20 February 2027.",
                "lantern fox deadline",
                "The Lantern Fox",
            ),
            belief(
                m,
                "s5",
                "Invoices go out on the last working day of the month, payable within 30 days.",
                "invoicing",
            ),
            belief(
                m,
                "s6old",
                "My studio is the spare bedroom at home.",
                "studio",
                valid_from=on("2024-01-01"),
            ),
            belief(
                m,
                "s6",
                "My studio is desk 12 in the Kettle Yard co-working space.",
                "studio",
                "Kettle Yard",
                valid_from=on("2026-09-01"),
                supersedes="s6old",
            ),
            belief(
                m,
                "s7",
                "Teodor Lind does my bookkeeping and files the VAT return each quarter.",
                "bookkeeping",
                "Teodor Lind",
            ),
            belief(
                m,
                "s8",
                "I turn down logo commissions and pass them on to Malak Saleh.",
                "logo work",
                "Malak Saleh",
            ),
            belief(
                m,
                "s9",
                "Files for print are CMYK PDFs at 300 dpi with 3 mm bleed.",
                "print files",
            ),
            belief(
                m,
                "s10",
                "The agency Northlight pays 20 percent more for jobs due within a week.",
                "northlight",
                "Northlight",
            ),
            belief(
                m,
                "s11",
                "Artwork is backed up nightly to a Synology NAS and weekly to Backblaze.",
                "backups",
                "Backblaze",
            ),
            belief(
                m,
                "s12",
                "My portfolio site is built on Cargo; I refresh it every January.",
                "portfolio",
                "Cargo",
            ),
            belief(
                m,
                "s13",
                "I have a retainer with The Coastal Review: one cover illustration a month.",
                "coastal review retainer",
                "The Coastal Review",
                valid_from=on("2025-12-01"),
                valid_to=on("2026-11-30"),
                state="expired",
            ),
            belief(
                m,
                "s14",
                "Adobe Fonts come with my Creative Cloud photography plan.",
                "fonts",
                "Adobe Fonts",
            ),
            belief(
                m,
                "s15",
                "My wrist strain flares up after five hours at the tablet, so I stop every hour.",
                "wrist strain",
            ),
            belief(
                m,
                "s16",
                "I keep the copyright on all my work; clients license it for the agreed use only.",
                "copyright",
            ),
            belief(
                m,
                "s17",
                "Clients get two rounds of sketch revisions; more are billed at 60 euros an hour.",
                "revisions",
            ),
            belief(
                m,
                "s18",
                "I am going to the Bologna Children's Book Fair in April 2027, sharing"
                " a stand with Callum Reyes.",
                "bologna fair",
                "Bologna",
                "Callum Reyes",
            ),
            belief(
                m,
                "s19",
                "My professional liability cover is with Hiscox.",
                "liability cover",
                "Hiscox",
            ),
            belief(
                m,
                "s20",
                "For ink work I like smooth Canson Bristol paper.",
                "paper",
                "Canson Bristol",
            ),
            belief(
                m,
                "s21",
                "The Kranich contract pays a 4,000 euro advance and 6 percent royalties after it.",
                "kranich contract",
                "Kranich Verlag",
            ),
            belief(
                m,
                "s22",
                "My agent is Oluwaseun Bakare of the Fernleaf Agency; she takes 15 percent.",
                "agent",
                "Oluwaseun Bakare",
                "Fernleaf Agency",
            ),
            belief(
                m,
                "s23",
                "On Thursday evenings I teach life drawing at the community college.",
                "teaching",
                valid_from=on("2026-09-01"),
                valid_to=on("2027-07-01"),
            ),
            belief(
                m,
                "s24",
                "My tax ID is kept in the password manager, never in notes.",
                "tax id",
            ),
            belief(
                m,
                "s25",
                "My risograph zines are printed by Spotprint in Leipzig.",
                "zines",
                "Spotprint",
                "Leipzig",
            ),
            belief(
                m,
                "s26",
                "I draw from 9 to 5 Monday to Thursday; Fridays are for admin.",
                "working hours",
            ),
            belief(
                m,
                "s27",
                "A Wacom Cintiq 16 is on order and arrives in January 2027.",
                "new tablet",
                "Wacom Cintiq 16",
            ),
        ]
    )


_STUDIO_Q: list[Question] = [
    Question(
        "How much do I charge per day for editorial work?",
        ("s1",),
        "answer",
        ("s1old", "s1next"),
        tag="history",
    ),
    Question("What's my daily fee?", ("s1",), "answer", ("s1old", "s1next"), tag="history"),
    Question(
        "What was my day rate?",
        ("s1old",),
        "answer",
        ("s1", "s1next"),
        as_of=on("2026-04-01"),
        tag="history",
    ),
    Question(
        "What do I charge a day?",
        ("s1next",),
        "answer",
        ("s1", "s1old"),
        as_of=on("2027-04-01"),
        tag="history",
    ),
    Question("Which apps do I paint with?", ("s2",), "answer", tag="paraphrase"),
    Question(
        "Who is my contact at the publisher for the kids' books?",
        ("s3",),
        "answer",
        tag="paraphrase",
    ),
    Question("When does The Lantern Fox go to print?", ("s4",), "answer"),
    Question("When do I bill my clients?", ("s5",), "answer", tag="paraphrase"),
    Question("Where do I work from these days?", ("s6",), "answer", ("s6old",), tag="history"),
    Question(
        "Where is my studio?", ("s6old",), "answer", ("s6",), as_of=on("2026-05-01"), tag="history"
    ),
    Question("Who does my accounts?", ("s7",), "answer", tag="paraphrase"),
    Question(
        "Someone wants a logo designed, who should I send them to?",
        ("s8",),
        "answer",
        tag="paraphrase",
    ),
    Question("What settings do files for the printer need?", ("s9",), "answer", tag="paraphrase"),
    Question("Does any client pay extra for urgent work?", ("s10",), "answer", tag="paraphrase"),
    Question("How is my artwork backed up?", ("s11",), "answer"),
    Question("Where is my portfolio hosted?", ("s12",), "answer"),
    Question(
        "How many covers a month do I do for The Coastal Review?",
        ("s13",),
        "answer",
        as_of=on("2026-06-01"),
        tag="history",
    ),
    Question(
        "Do I still draw covers for The Coastal Review?", (), "answer", ("s13",), tag="history"
    ),
    Question("How do I get Adobe Fonts?", ("s14",), "answer"),
    Question("Why does my hand hurt after long sessions?", ("s15",), "answer", tag="paraphrase"),
    Question(
        "Who owns the rights to the pictures I make for clients?",
        ("s16",),
        "answer",
        tag="paraphrase",
    ),
    Question(
        "How many rounds of changes does a client get for free?",
        ("s17",),
        "answer",
        tag="paraphrase",
    ),
    Question("Which trade fair am I going to in the spring?", ("s18",), "answer", tag="paraphrase"),
    Question("Who am I sharing a stand with in Bologna?", ("s18",), "answer"),
    Question("Who insures me?", ("s19",), "answer", tag="paraphrase"),
    Question("What paper do I like for inking?", ("s20",), "answer"),
    Question("What royalty does the Kranich deal pay?", ("s21",), "answer"),
    Question("How much commission does my agent take?", ("s22",), "answer", tag="paraphrase"),
    Question("What do I do on Thursday evenings?", ("s23",), "answer"),
    Question(
        "What do I do on Thursday evenings?",
        (),
        "answer",
        ("s23",),
        as_of=on("2027-09-01"),
        tag="history",
    ),
    Question("Where is my tax number kept?", ("s24",), "answer", tag="paraphrase"),
    Question("Where do my zines get printed?", ("s25",), "answer"),
    Question("Do I work on Fridays?", ("s26",), "answer"),
    Question("What new drawing tablet am I getting?", ("s27",), "answer"),
    Question("what does oluwaseun do for me", ("s22",), "answer"),
    Question("who is henrike", ("s3",), "answer"),
    Question("What is my rate for animation work?", (), "absent"),
    Question("When is the sculpture book due at the printer?", (), "absent"),
    Question("Which agency handles my animation jobs?", (), "absent"),
    Question("What time does my pottery class start on Tuesdays?", (), "absent"),
    Question("Who is my lawyer?", (), "absent"),
    Question("Who is my health insurer?", (), "absent"),
    Question("When is the Frankfurt Book Fair?", (), "absent"),
    Question("What is the deadline for the graphic novel?", (), "absent"),
    Question("What is my hourly rate for tattoo designs?", (), "absent"),
    Question("Which bank holds my business account?", (), "absent"),
    Question("What is the wifi password at the co-working space?", (), "absent"),
    Question("What camera do I photograph my paintings with?", (), "absent"),
    Question("Who is my landlord?", (), "absent"),
    Question("How do I get oil paint out of a shirt?", (), "offtopic"),
    Question("What is the population of Peru?", (), "offtopic"),
]


def _org() -> dict[str, dict[str, Any]]:
    m = "org"
    return dict(
        [
            belief(
                m,
                "o1",
                "Ruairi Dunne leads the payments team, which owns checkout and refunds.",
                "payments team",
                "Ruairi Dunne",
            ),
            belief(
                m,
                "o2",
                "Mireille Fontaine heads the design team and sits in the Nantes office.",
                "design team",
                "Mireille Fontaine",
                "Nantes",
            ),
            belief(
                m,
                "o3",
                "The payments team's standup is at 09:30 in the Orchard room.",
                "payments standup",
            ),
            belief(
                m,
                "o4",
                "The Nantes office is on the third floor of the Halle building; badges"
                " come from reception.",
                "nantes office",
                "Nantes",
            ),
            belief(
                m,
                "o5",
                "The Toronto office opened in October 2026 with eleven people.",
                "toronto office",
                "Toronto",
            ),
            belief(
                m,
                "o6",
                "The data warehouse is Snowflake; the analytics team owns the dbt models.",
                "data warehouse",
                "Snowflake",
            ),
            belief(
                m,
                "o7",
                "Security reviews are done by Ayodele Okafor.",
                "security reviews",
                "Ayodele Okafor",
            ),
            belief(
                m,
                "o8",
                "The all-hands is on the first Wednesday of every month at 16:00 CET.",
                "all-hands",
            ),
            belief(
                m,
                "o9",
                "The payments team is hiring two backend engineers; interviews are"
                " pair-programming sessions.",
                "payments hiring",
            ),
            belief(
                m,
                "o10",
                "The engineering summit is in Valencia on 3-5 May 2027.",
                "engineering summit",
                "Valencia",
            ),
            belief(
                m,
                "o11",
                "Quarterly OKRs go to the CTO, Halvard Berg, two weeks before the quarter ends.",
                "okrs",
                "Halvard Berg",
            ),
            belief(
                m,
                "o12",
                "Our design system is Prism: a Figma library and a React package.",
                "design system",
                "Prism",
            ),
            belief(
                m,
                "o13",
                "Expenses under 200 euros need no receipt; above that, upload it to Pleo.",
                "expenses",
                "Pleo",
            ),
            belief(
                m,
                "o14",
                "Incidents are declared in #incident-room; the incident commander"
                " comes from the SRE rota.",
                "incidents",
            ),
            belief(
                m,
                "o15",
                "The new engineer checklist is in Notion under People > Onboarding.",
                "onboarding",
                "Notion",
            ),
            belief(
                m,
                "o16",
                "Every parent gets 20 weeks of fully paid parental leave.",
                "parental leave",
            ),
            belief(
                m,
                "o17",
                "Engineers get a MacBook Pro 14 by default, or a Linux ThinkPad on request.",
                "laptops",
            ),
            belief(m, "o18", "The on-call allowance is 300 euros a week.", "on-call allowance"),
            belief(
                m,
                "o19",
                "The payments team deploys on Tuesdays and Thursdays only.",
                "payments deploys",
            ),
            belief(
                m,
                "o20",
                "Ruairi is on sabbatical; Ottilie Marsh is acting lead of payments"
                " until he is back.",
                "payments acting lead",
                "Ruairi Dunne",
                "Ottilie Marsh",
                valid_from=on("2026-11-01"),
                valid_to=on("2027-02-01"),
            ),
            belief(
                m,
                "o21",
                "The platform team was dissolved in September 2026; its services moved to SRE.",
                "platform team",
            ),
            belief(
                m,
                "o22old",
                "Jasper Okonkwo leads the platform team.",
                "jasper role",
                "Jasper Okonkwo",
                valid_from=on("2024-03-01"),
            ),
            belief(
                m,
                "o22",
                "Jasper Okonkwo has headed the SRE team since September 2026.",
                "jasper role",
                "Jasper Okonkwo",
                valid_from=on("2026-09-01"),
                supersedes="o22old",
            ),
            belief(m, "o23", "Salaries are reviewed every March.", "salary review"),
            belief(
                m,
                "o24",
                "The holiday code freeze runs from 18 December 2026 to 4 January 2027.",
                "code freeze",
            ),
            belief(
                m,
                "o25",
                "Customer support works in Zendesk and escalates to engineering"
                " through the SUP project in Jira.",
                "support escalation",
                "Zendesk",
                "Jira",
            ),
            belief(
                m,
                "o26",
                "Mireille wants design feedback as Loom videos, not meetings.",
                "design feedback",
                "Mireille Fontaine",
            ),
            belief(
                m,
                "o27",
                "The VPN is Tailscale; ask for access on the IT portal.",
                "vpn",
                "Tailscale",
            ),
            belief(
                m,
                "o28",
                "Interns start every June and get a mentor from their own team.",
                "interns",
            ),
            belief(
                m,
                "o29",
                "Any open-source licence other than MIT or Apache-2.0 needs the legal"
                " team's approval.",
                "licences",
            ),
        ]
    )


_ORG_Q: list[Question] = [
    Question("Who runs payments?", ("o1",), "answer", tag="paraphrase"),
    Question("Who is in charge of design?", ("o2",), "answer", tag="paraphrase"),
    Question("When is the payments standup?", ("o3",), "answer"),
    Question("Which floor is the Nantes office on?", ("o4",), "answer"),
    Question("How big is our Canadian office?", ("o5",), "answer", tag="paraphrase"),
    Question("Where does our analytics data live?", ("o6",), "answer", tag="paraphrase"),
    Question(
        "Who should check my change for vulnerabilities?", ("o7",), "answer", tag="paraphrase"
    ),
    Question("When is the monthly company meeting?", ("o8",), "answer", tag="paraphrase"),
    Question("Is the payments team recruiting?", ("o9",), "answer", tag="paraphrase"),
    Question(
        "Where is the engineering get-together next year?", ("o10",), "answer", tag="paraphrase"
    ),
    Question("Who do I send OKRs to?", ("o11",), "answer"),
    Question("What is our component library called?", ("o12",), "answer", tag="paraphrase"),
    Question("Do I need a receipt for a 50 euro lunch?", ("o13",), "answer", tag="paraphrase"),
    Question("How do we declare an outage?", ("o14",), "answer", tag="paraphrase"),
    Question("Where is the new-hire checklist?", ("o15",), "answer", tag="paraphrase"),
    Question("How long is parental leave?", ("o16",), "answer"),
    Question("Can I get a Linux laptop?", ("o17",), "answer"),
    Question("How much extra am I paid for being on call?", ("o18",), "answer", tag="paraphrase"),
    Question("Which days can payments ship to production?", ("o19",), "answer", tag="paraphrase"),
    Question("Who is acting lead of payments?", ("o20",), "answer", tag="history"),
    Question(
        "Who is acting lead of payments?",
        (),
        "answer",
        ("o20",),
        as_of=on("2027-03-01"),
        tag="history",
    ),
    Question("What happened to the platform team?", ("o21",), "answer"),
    Question("Who leads SRE?", ("o22",), "answer", ("o22old",), tag="history"),
    Question(
        "Who led the platform team?",
        ("o22old",),
        "answer",
        ("o22",),
        as_of=on("2026-05-01"),
        tag="history",
    ),
    Question("Who leads the platform team now?", ("o21",), "answer", ("o22old",), tag="history"),
    Question("When are pay rises decided?", ("o23",), "answer", tag="paraphrase"),
    Question("When is the holiday code freeze?", ("o24",), "answer"),
    Question("What tool does customer support use?", ("o25",), "answer"),
    Question("How does Mireille like to get feedback on designs?", ("o26",), "answer"),
    Question("How do I reach internal services from home?", ("o27",), "answer", tag="paraphrase"),
    Question("When do interns join?", ("o28",), "answer"),
    Question("Can I use a GPL library in our product?", ("o29",), "answer", tag="paraphrase"),
    Question("who is halvard", ("o11",), "answer"),
    Question("what does ayodele do", ("o7",), "answer"),
    Question("Who leads the mobile team?", (), "absent"),
    Question("When is the design team's standup?", (), "absent"),
    Question("Where is the Madrid office?", (), "absent"),
    Question("Is the data team hiring?", (), "absent"),
    Question("Who is the head of marketing?", (), "absent"),
    Question("When is the sales kickoff?", (), "absent"),
    Question("How much is the home-office allowance?", (), "absent"),
    Question("How many sick days do we get?", (), "absent"),
    Question("Which days does the mobile team deploy?", (), "absent"),
    Question("When is the analytics team's standup?", (), "absent"),
    Question("Where is the product roadmap kept?", (), "absent"),
    Question("What phone do engineers get?", (), "absent"),
    Question("When is the summer party?", (), "absent"),
    Question("Who leads the growth team?", (), "absent"),
    Question("How do I descale a kettle?", (), "offtopic"),
    Question("What is the offside rule in football?", (), "offtopic"),
]


def _trip() -> dict[str, dict[str, Any]]:
    m = "trip"
    return dict(
        [
            belief(
                m,
                "t1",
                "We fly Helsinki to Osaka with Finnair on 2 April 2027, landing at"
                " Kansai at 17:40.",
                "outbound flight",
                "Finnair",
                "Osaka",
                "Kansai",
            ),
            belief(
                m,
                "t2",
                "In Kyoto we stay three nights at Ryokan Hoshino near Gion, dinner included.",
                "kyoto ryokan",
                "Kyoto",
                "Ryokan Hoshino",
            ),
            belief(
                m,
                "t3",
                "The JR Pass does not pay off for our route; we buy single shinkansen tickets.",
                "rail tickets",
                "JR Pass",
            ),
            belief(
                m,
                "t4",
                "Joaquim gets motion sick on buses, so we take trains where we can.",
                "joaquim buses",
                "Joaquim",
            ),
            belief(
                m,
                "t5",
                "Our daughter Elif is eight, loves trains and wants to see the Kyoto"
                " Railway Museum.",
                "elif",
                "Elif",
                "Kyoto Railway Museum",
            ),
            belief(
                m,
                "t6",
                "In Tokyo we rent an apartment in Koenji from a host called Mieko.",
                "tokyo apartment",
                "Tokyo",
                "Mieko",
            ),
            belief(
                m,
                "t7",
                "Our travel insurance is with World Nomads; the policy number is in"
                " the shared travel folder.",
                "travel insurance",
                "World Nomads",
            ),
            belief(
                m,
                "t8",
                "Elif is allergic to sesame; we carry an allergy card in Japanese.",
                "elif allergy",
                "Elif",
            ),
            belief(
                m,
                "t9",
                "We want to see the cherry blossom along the Philosopher's Path.",
                "cherry blossom",
                "Philosopher's Path",
            ),
            belief(m, "t10", "The trip's budget is 6,000 euros, flights included.", "budget"),
            belief(
                m,
                "t11",
                "Joaquim's passport expires in May 2027 and must be renewed before we go.",
                "joaquim passport",
                "Joaquim",
            ),
            belief(
                m,
                "t12",
                "We booked a tea ceremony in Uji on 5 April at 14:00.",
                "tea ceremony",
                "Uji",
            ),
            belief(
                m,
                "t13",
                "Suica cards go on our phones; Elif needs a physical child Suica.",
                "suica",
                "Suica",
                "Elif",
            ),
            belief(
                m,
                "t14",
                "Rosalind, the cat-sitter, comes twice a day while we are away and has a key.",
                "cat-sitter",
                "Rosalind",
            ),
            belief(
                m,
                "t15",
                "We fly home from Tokyo Haneda on 16 April 2027.",
                "return flight",
                "Haneda",
            ),
            belief(
                m,
                "t16",
                "A pocket wifi router is reserved for pickup at Kansai airport.",
                "pocket wifi",
                "Kansai",
            ),
            belief(
                m,
                "t17",
                "I want a day hiking the Kumano Kodo from Takijiri to Chikatsuyu.",
                "hiking",
                "Kumano Kodo",
            ),
            belief(
                m,
                "t18",
                "A day trip to Hiroshima on 8 April: the Peace Memorial and Miyajima.",
                "hiroshima day trip",
                "Hiroshima",
                "Miyajima",
            ),
            belief(m, "t19", "Joaquim doesn't eat pork.", "joaquim food", "Joaquim"),
            belief(
                m,
                "t20",
                "Take 50,000 yen in cash from home; many small shops don't take cards.",
                "cash",
            ),
            belief(
                m,
                "t21old",
                "In Osaka we stay two nights at Hotel Kitahama.",
                "osaka hotel",
                "Osaka",
                "Hotel Kitahama",
                valid_from=on("2026-08-01"),
            ),
            belief(
                m,
                "t21",
                "We moved our Osaka stay to Cross Hotel in Namba, same two nights.",
                "osaka hotel",
                "Osaka",
                "Cross Hotel",
                valid_from=on("2026-11-20"),
                supersedes="t21old",
            ),
            belief(
                m,
                "t22",
                "Finnair is holding our seats without payment.",
                "seat hold",
                "Finnair",
                valid_from=on("2026-10-20"),
                valid_to=on("2026-11-15"),
                state="expired",
            ),
            belief(
                m,
                "t23",
                "We must fill in Visit Japan Web for customs before we land.",
                "customs form",
                "Visit Japan Web",
            ),
            belief(
                m,
                "t24",
                "Elif's school knows she misses the last week before the Easter holidays.",
                "school absence",
                "Elif",
            ),
            belief(
                m,
                "t25",
                "Our suitcases are sent ahead by takkyubin from Kyoto to Tokyo on 9 April.",
                "luggage forwarding",
                "takkyubin",
            ),
            belief(
                m,
                "t26",
                "My Japanese is basic; Joaquim studied it for two years and reads kana.",
                "japanese",
                "Joaquim",
            ),
            belief(
                m,
                "t27",
                "We want to try an onsen, but Joaquim's tattoo means we need a"
                " tattoo-friendly one.",
                "onsen",
                "Joaquim",
            ),
            belief(
                m,
                "t28",
                "Our neighbour Piet waters the plants and takes in the post.",
                "neighbour",
                "Piet",
            ),
        ]
    )


_TRIP_Q: list[Question] = [
    Question("When do we land in Japan?", ("t1",), "answer", tag="paraphrase"),
    Question("Which airline are we flying?", ("t1",), "answer"),
    Question("Where do we sleep in Kyoto?", ("t2",), "answer", tag="paraphrase"),
    Question("Should we buy the rail pass?", ("t3",), "answer", tag="paraphrase"),
    Question("Can Joaquim cope with long coach rides?", ("t4",), "answer", tag="paraphrase"),
    Question("What museum does our kid want to visit?", ("t5",), "answer", tag="paraphrase"),
    Question("Who is our host in Tokyo?", ("t6",), "answer"),
    Question(
        "Who covers us if something goes wrong on the trip?", ("t7",), "answer", tag="paraphrase"
    ),
    Question("What food must Elif avoid?", ("t8",), "answer", tag="paraphrase"),
    Question("Where do we want to see sakura?", ("t9",), "answer", tag="paraphrase"),
    Question("How much can we spend on the holiday?", ("t10",), "answer", tag="paraphrase"),
    Question("Does anyone need a new passport?", ("t11",), "answer", tag="paraphrase"),
    Question("When is the tea ceremony?", ("t12",), "answer"),
    Question("How will we pay for the metro?", ("t13",), "answer", tag="paraphrase"),
    Question("Who looks after the cat?", ("t14",), "answer"),
    Question("Which airport do we leave Japan from?", ("t15",), "answer", tag="paraphrase"),
    Question("Where do we pick up mobile internet?", ("t16",), "answer", tag="paraphrase"),
    Question(
        "Which part of the pilgrimage trail will I walk?", ("t17",), "answer", tag="paraphrase"
    ),
    Question("When is the Miyajima day?", ("t18",), "answer"),
    Question("Does Joaquim have any food restrictions?", ("t19",), "answer", tag="paraphrase"),
    Question("How much yen should we bring?", ("t20",), "answer"),
    Question("Where are we staying in Osaka?", ("t21",), "answer", ("t21old",), tag="history"),
    Question(
        "Which hotel have we booked in Osaka?",
        ("t21old",),
        "answer",
        ("t21",),
        as_of=on("2026-10-01"),
        tag="history",
    ),
    Question(
        "Is Finnair holding our seats?", ("t22",), "answer", as_of=on("2026-11-01"), tag="history"
    ),
    Question("Is Finnair holding our seats?", (), "answer", ("t22",), tag="history"),
    Question("What form do we fill in before arrival?", ("t23",), "answer", tag="paraphrase"),
    Question("Who can read Japanese signs?", ("t26",), "answer", tag="paraphrase"),
    Question("Can we go to a hot spring?", ("t27",), "answer", tag="paraphrase"),
    Question("Who collects our mail?", ("t28",), "answer", tag="paraphrase"),
    Question("How do our bags get from Kyoto to Tokyo?", ("t25",), "answer", tag="paraphrase"),
    Question("Does Elif's school know about the trip?", ("t24",), "answer"),
    Question("Where are we staying in Nara?", (), "absent"),
    Question("When does our flight to Sapporo leave?", (), "absent"),
    Question("Which car rental company did we book in Kyoto?", (), "absent"),
    Question("What time is the sumo tournament?", (), "absent"),
    Question("When is the sushi-making class?", (), "absent"),
    Question("Who is looking after the dog?", (), "absent"),
    Question("When is the ferry to Shikoku?", (), "absent"),
    Question("Which ski resort are we going to?", (), "absent"),
    Question("When do we fly to Bangkok?", (), "absent"),
    Question("What is the name of our hotel in Lisbon?", (), "absent"),
    Question("How much did the Iceland trip cost?", (), "absent"),
    Question("What is Elif's shoe size?", (), "absent"),
    Question("How do I repot an orchid?", (), "offtopic"),
    Question("Why is the sky blue?", (), "offtopic"),
]


def _code() -> dict[str, dict[str, Any]]:
    m = "code"

    def project(name: str, portability: str) -> dict[str, Any]:
        return {"scope": "project", "origin_project": name, "portability": portability}

    tide, quarry = "tidepool", "quarry"
    return dict(
        [
            belief(
                m,
                "p1",
                "Tidepool builds with cargo and needs Rust 1.80 or newer.",
                "rust version",
                "cargo",
                belief_type="environment",
                **project(tide, "local"),
            ),
            belief(
                m,
                "p2",
                "Run the tests with cargo nextest, not cargo test: the integration"
                " tests need nextest's process isolation.",
                "test runner",
                "cargo-nextest",
                belief_type="procedure",
                **project(tide, "contextual"),
            ),
            belief(
                m,
                "p3",
                "Every public function needs a doc comment with a short example.",
                "doc comments",
                belief_type="preference",
            ),
            belief(
                m,
                "p4",
                "Release tags are signed with the user's SSH key, not GPG.",
                "release signing",
                belief_type="procedure",
                **project(tide, "local"),
            ),
            belief(
                m,
                "p5",
                "Keep pull requests small: under 400 changed lines.",
                "pull request size",
                belief_type="preference",
            ),
            belief(
                m,
                "p6",
                "The config file lives at ~/.config/tidepool/config.toml.",
                "config file",
                belief_type="environment",
                **project(tide, "local"),
            ),
            belief(
                m,
                "p7",
                "Errors must carry context: wrap them with what was being done, and"
                " never swallow them.",
                "error handling",
                belief_type="preference",
                **project(tide, "portable"),
            ),
            belief(
                m,
                "p8",
                "CI runs on Buildkite with agents on a Hetzner server.",
                "ci",
                "Buildkite",
                belief_type="environment",
                **project(tide, "local"),
            ),
            belief(
                m,
                "p9",
                "Benchmark changes with criterion and compare against the main"
                " branch's baseline before merging.",
                "benchmarks",
                "criterion",
                belief_type="procedure",
                **project(tide, "contextual"),
            ),
            belief(
                m,
                "p10",
                "Commit messages are in the imperative mood with a short body that says why.",
                "commit messages",
                belief_type="preference",
            ),
            belief(
                m,
                "p11",
                "The main branch is frozen for the 0.9 release: no merges.",
                "merge freeze",
                belief_type="procedure",
                valid_from=on("2026-11-01"),
                valid_to=on("2026-11-20"),
                state="expired",
                **project(tide, "local"),
            ),
            belief(
                m,
                "q1",
                "Quarry is a Django 5 service deployed on Render.",
                "hosting",
                "Django",
                "Render",
                belief_type="environment",
                **project(quarry, "local"),
            ),
            belief(
                m,
                "q2",
                "Dependencies are managed with uv; never pip install into the venv directly.",
                "dependencies",
                "uv",
                belief_type="procedure",
                **project(quarry, "contextual"),
            ),
            belief(
                m,
                "q3",
                "The test database is built from the fixtures in tests/fixtures: run"
                " make db first.",
                "test database",
                belief_type="procedure",
                **project(quarry, "local"),
            ),
            belief(
                m,
                "q4",
                "Type hints are required and mypy runs in strict mode.",
                "type checking",
                "mypy",
                belief_type="preference",
                **project(quarry, "portable"),
            ),
            belief(
                m,
                "q5",
                "API tokens are rotated monthly by the ops channel's bot.",
                "token rotation",
                belief_type="environment",
                **project(quarry, "local"),
            ),
            belief(
                m,
                "q6",
                "The staging database is a nightly copy of production with emails scrambled.",
                "staging data",
                belief_type="environment",
                **project(quarry, "local"),
            ),
            belief(
                m,
                "q7",
                "Don't mock the database in tests; use a real Postgres in a container.",
                "test doubles",
                belief_type="preference",
                **project(quarry, "portable"),
            ),
            belief(
                m,
                "q8",
                "Celery workers must be restarted after any change to tasks.py.",
                "celery workers",
                "Celery",
                belief_type="procedure",
                **project(quarry, "local"),
            ),
            belief(
                m,
                "q9",
                "Translations use gettext: run makemessages after changing any user-facing string.",
                "translations",
                "gettext",
                belief_type="procedure",
                **project(quarry, "contextual"),
            ),
            belief(
                m,
                "q10old",
                "The service runs on Python 3.11.",
                "python version",
                valid_from=on("2025-02-01"),
                belief_type="environment",
                **project(quarry, "local"),
            ),
            belief(
                m,
                "q10",
                "The service moved to Python 3.13 in October 2026.",
                "python version",
                valid_from=on("2026-10-15"),
                supersedes="q10old",
                belief_type="environment",
                **project(quarry, "local"),
            ),
            belief(
                m,
                "u1",
                "The user works on London time and wants no pings after 19:00.",
                "working hours",
                belief_type="preference",
            ),
            belief(
                m,
                "u2",
                "The user's GitHub handle is wrenfield.",
                "github handle",
                "wrenfield",
                belief_type="user_model",
            ),
        ]
    )


_TIDE, _QUARRY = "tidepool", "quarry"
_CODE_Q: list[Question] = [
    Question("Which Rust version is required?", ("p1",), "answer", project=_TIDE),
    Question("How do I run the test suite?", ("p2",), "answer", project=_TIDE),
    Question("Do public functions need docs?", ("p3",), "answer", project=_QUARRY),
    Question("How do I sign a release tag?", ("p4",), "answer", project=_TIDE),
    Question("How long should a PR be?", ("p5",), "answer", project=_TIDE, tag="paraphrase"),
    Question("How big should pull requests be?", ("p5",), "answer", project=_QUARRY),
    Question("How big should pull requests be?", ("p5",), "answer"),
    Question("Where is the config file?", ("p6",), "answer", project=_TIDE),
    Question(
        "How should errors be handled in this service?",
        ("p7",),
        "answer",
        project=_QUARRY,
        tag="transfer",
    ),
    Question("Where is CI hosted?", ("p8",), "answer", project=_TIDE),
    Question("How do I run the benchmarks?", ("p9",), "answer", project=_TIDE),
    Question(
        "Should I compare benchmark results before merging?",
        ("p9",),
        "answer",
        project=_QUARRY,
        tag="transfer",
    ),
    Question("How should I write the commit message?", ("p10",), "answer", project=_QUARRY),
    Question(
        "Can I merge to main?",
        ("p11",),
        "answer",
        as_of=on("2026-11-10"),
        project=_TIDE,
        tag="history",
    ),
    Question("Can I merge to main?", (), "answer", ("p11",), project=_TIDE, tag="history"),
    Question("Where is the service hosted?", ("q1",), "answer", project=_QUARRY),
    Question("How do I add a dependency?", ("q2",), "answer", project=_QUARRY),
    Question("How do I set up the test database?", ("q3",), "answer", project=_QUARRY),
    Question(
        "Does the user want type annotations?", ("q4",), "answer", project=_QUARRY, tag="paraphrase"
    ),
    Question("How often are API tokens rotated?", ("q5",), "answer", project=_QUARRY),
    Question("What data does staging have?", ("q6",), "answer", project=_QUARRY),
    Question(
        "Should I use mocks for the database in these tests?", ("q7",), "answer", project=_QUARRY
    ),
    Question(
        "Should I use mocks for the database in these tests?",
        ("q7",),
        "answer",
        project=_TIDE,
        tag="transfer",
    ),
    Question("I changed tasks.py, anything else to do?", ("q8",), "answer", project=_QUARRY),
    Question(
        "I edited some UI text; what next?", ("q9",), "answer", project=_QUARRY, tag="paraphrase"
    ),
    Question(
        "Which Python version does the service run?",
        ("q10",),
        "answer",
        ("q10old",),
        project=_QUARRY,
        tag="history",
    ),
    Question(
        "Which Python version are we on?",
        ("q10old",),
        "answer",
        ("q10",),
        as_of=on("2026-06-01"),
        project=_QUARRY,
        tag="history",
    ),
    Question(
        "Until what time can I message the user?",
        ("u1",),
        "answer",
        project=_QUARRY,
        tag="paraphrase",
    ),
    Question("What's the user's GitHub username?", ("u2",), "answer", project=_TIDE),
    Question("Which CI do we use here?", (), "absent", ("p8",), project=_QUARRY),
    Question("Where is the config file?", (), "absent", ("p6",), project=_QUARRY),
    Question("How do I sign a release?", (), "absent", ("p4",), project=_QUARRY),
    Question("Where is the service hosted?", (), "absent", ("q1",), project=_TIDE),
    Question("How do I set up the test database?", (), "absent", ("q3",), project=_TIDE),
    Question("Who reviews database migrations?", (), "absent", project=_QUARRY),
    Question("What is the Kubernetes namespace?", (), "absent", project=_QUARRY),
    Question("What is the Windows installer command?", (), "absent", project=_TIDE),
    Question("Where do we publish the Docker image?", (), "absent", project=_TIDE),
    Question("What is the mobile app's bundle id?", (), "absent", project=_QUARRY),
    Question("How is the frontend built?", (), "absent", project=_QUARRY),
    Question("What is the user's phone number?", (), "absent"),
    Question("Who is on call for quarry this week?", (), "absent"),
    Question("What is the capital of Mongolia?", (), "offtopic", project=_TIDE),
    Question("How do I bake focaccia?", (), "offtopic"),
]


def probe() -> Probe:
    """The four memories and their questions."""
    return {
        "studio": (_studio(), _STUDIO_Q),
        "org": (_org(), _ORG_Q),
        "trip": (_trip(), _TRIP_Q),
        "code": (_code(), _CODE_Q),
    }


def asked(embedder: str) -> list[Asked]:
    """Every question of every memory, recalled with ``embedder``."""
    return ask(embedder, "recallflow_gaps", probe())


if __name__ == "__main__":
    main(asked, __doc__ or "")
