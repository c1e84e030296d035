"""Retrieval on four more unseen memories, aimed at what ``benchmarks.unseen_memories`` and
``benchmarks.unseen_gaps`` left out: answers that are a number, an amount, a quantity or a
unit ("How much does the dairy pay for a litre?"), recurring schedules ("every second
Thursday"), refusals and negative preferences asked the other way round ("Does Mum eat
jamón?" of "Mum does not eat pork"), one clause of a long paragraph belief, German, Spanish
and Dutch names and words (with and without their accents), and questions answered only
through a person or thing another belief names (two hops: "Who trims Liesl's hooves?" of
"Liesl is a Haflinger" and "the farrier trims the horses' hooves"). The memories: a small
dairy farm, a person managing a parent's care from abroad, a PhD student's research and
supervisors, and a bass player's band, gigs and gear.

Usage::

    RECALLFLOW_BENCH_HOME=... python -m benchmarks.unseen_facets [--embedder minilm]
        [--half held] [--detail]

Each question falls in the tuning or the held half by the seeded hash of
``benchmarks.unseen_memories``, fixed before any tuning; the figures are that module's,
with the answerable questions found by facet (their tag). A two-hop question counts as
found only when every belief of its chain renders.
"""

from __future__ import annotations

from benchmarks.unseen_memories import Asked, Belief, Probe, Question, ask, main, user_drafts

FARM: dict[str, Belief] = {
    "f1": (
        "We milk 34 cows, mostly Braunvieh, twice a day at 5:30 and 17:00.",
        "milking",
        ["Braunvieh"],
    ),
    "f2": (
        "The milk goes to the Sennerei Oberstaufen cheese dairy, which pays 58 cents a litre.",
        "milk price",
        ["Sennerei Oberstaufen"],
    ),
    "f3": (
        "The farrier, Anton Gruber, trims the horses' hooves every six weeks.",
        "farrier",
        ["Anton Gruber"],
    ),
    "f4": ("Our two horses are Haflingers called Liesl and Wastl.", "horses", ["Liesl", "Wastl"]),
    "f5": (
        "The vet is Dr. Katharina Weiß from the Tierarztpraxis Immenstadt.",
        "vet",
        ["Katharina Weiß", "Tierarztpraxis Immenstadt"],
    ),
    "f6": (
        "Dr. Weiß does the herd health check on the first Monday of every month.",
        "herd health check",
        ["Katharina Weiß"],
    ),
    "f7": (
        "The Hofladen is open Friday and Saturday from 9 to 18; eggs are 3.20 euros for ten.",
        "farm shop",
        ["Hofladen"],
    ),
    "f8": (
        "We keep 120 laying hens in two mobile coops that are moved every week.",
        "hens",
        [],
    ),
    "f9": (
        "The cows go up to the alpine pasture in early June and come down for the"
        " Viehscheid in mid-September.",
        "alpine pasture",
        ["Viehscheid"],
    ),
    "f10": (
        "We never use glyphosate; the farm has been certified organic by Bioland since 2019.",
        "organic",
        ["Bioland"],
    ),
    "f11": (
        "The tractor is a 2014 Fendt 211 Vario; it is serviced every 500 hours.",
        "tractor",
        ["Fendt"],
    ),
    "f12": (
        "The farm is 42 hectares: 30 of grassland, 8 of forest and 4 of orchard.",
        "land",
        [],
    ),
    "f13": (
        "The lease on the lower meadow costs 2,400 euros a year, paid to the Huber family"
        " each November.",
        "lease",
        ["Huber"],
    ),
    "f14": (
        "Hay is cut three times a summer; the first cut is usually in late May.",
        "hay",
        [],
    ),
    "f15": (
        "The winter routine runs like this: the cows stay in the free-stall barn from November"
        " to April, the barn is mucked out every morning after milking, the water troughs have"
        " heaters that must be checked whenever it drops below minus ten, the hens get extra"
        " light from 6 am, and Jakob takes over the evening milking on weekends so I can rest.",
        "winter routine",
        ["Jakob"],
    ),
    "f16": (
        "Jakob is our apprentice from the agricultural school in Kempten; he works Tuesday"
        " to Saturday.",
        "apprentice",
        ["Jakob", "Kempten"],
    ),
    "f17": ("I don't sell raw milk to the public; the insurance won't cover it.", "raw milk", []),
    "f18": (
        "The bull calves are sold at about three weeks old to a fattening farm in Memmingen.",
        "calves",
        ["Memmingen"],
    ),
    "f19": ("Our sheepdog Rosi is a border collie; she is scared of thunder.", "dog", ["Rosi"]),
    "f20": (
        "The orchard has 60 apple trees; the juice is pressed at the Mosterei Schmid in October.",
        "orchard",
        ["Mosterei Schmid"],
    ),
    "f21": (
        "Diesel comes from the Raiffeisen cooperative; we use about 4,000 litres a year.",
        "diesel",
        ["Raiffeisen"],
    ),
    "f22": ("The EU direct payments arrive in December, around 11,000 euros.", "subsidies", []),
    "f23": (
        "The milk collection truck comes every other day at 7 in the morning.",
        "milk collection",
        [],
    ),
    "f24": (
        "Our books are kept by the Landwirtschaftliche Buchstelle in Kempten; the contact is"
        " Frau Brandl.",
        "bookkeeping",
        ["Frau Brandl", "Landwirtschaftliche Buchstelle"],
    ),
    "f25": (
        "No cow gets antibiotics without a written treatment plan from the vet.",
        "antibiotics",
        [],
    ),
    "f26": (
        "On the last day of haymaking we always cook Käsespätzle for the helpers.",
        "harvest helpers",
        [],
    ),
    "f27": ("The oldest cow, Berta, is 14 and has had eleven calves.", "berta", ["Berta"]),
    "f28": (
        "Wood from our forest is cut in January; about 25 cubic metres heats the house.",
        "firewood",
        [],
    ),
}

FARM_Q: list[tuple[str, tuple[str, ...], str]] = [
    ("How many cows do we milk?", ("f1",), "number"),
    ("How much does the dairy pay for a litre of milk?", ("f2",), "number"),
    ("What do eggs cost in the farm shop?", ("f7",), "number"),
    ("How many hens do we have?", ("f8",), "number"),
    ("How big is the farm?", ("f12",), "number"),
    ("how many hectares of forest do we have", ("f12",), "number"),
    ("How much is the rent for the lower meadow?", ("f13",), "number"),
    ("How much diesel do we use a year?", ("f21",), "number"),
    ("How much money do the EU payments bring?", ("f22",), "number"),
    ("How old is Berta?", ("f27",), "number"),
    ("How much firewood do we burn?", ("f28",), "number"),
    ("How many apple trees are there?", ("f20",), "number"),
    ("how many calves has berta had", ("f27",), "number"),
    ("What time is milking?", ("f1",), "schedule"),
    ("How often does the farrier come?", ("f3",), "schedule"),
    ("When is the herd health check?", ("f6",), "schedule"),
    ("When is the farm shop open?", ("f7",), "schedule"),
    ("How often are the hen coops moved?", ("f8",), "schedule"),
    ("How often does the tractor need a service?", ("f11",), "schedule"),
    ("When is the first hay cut?", ("f14",), "schedule"),
    ("How often does the milk truck come?", ("f23",), "schedule"),
    ("Which days does Jakob work?", ("f16",), "schedule"),
    ("When do we pay the lease?", ("f13",), "schedule"),
    ("Do we spray Roundup on the fields?", ("f10",), "negative"),
    ("Can a customer buy raw milk from us?", ("f17",), "negative"),
    ("Can I give a sick cow antibiotics straight away?", ("f25",), "negative"),
    ("Do we keep the bull calves?", ("f18",), "negative"),
    ("Who does the evening milking on winter weekends?", ("f15",), "paragraph"),
    ("When do the trough heaters need checking?", ("f15",), "paragraph"),
    ("When are the cows kept in the barn?", ("f15",), "paragraph"),
    ("When is the Viehscheid?", ("f9",), "foreign"),
    ("Where is our cheese made?", ("f2",), "foreign"),
    ("Who is Frau Brandl?", ("f24",), "foreign"),
    ("what does dr weiss do", ("f5",), "foreign"),
    ("Who presses our apple juice?", ("f20",), "foreign"),
    ("What do we cook for the haymaking helpers?", ("f26",), "foreign"),
    ("What breed are our cows?", ("f1",), "foreign"),
    ("Which practice is the person doing the herd health check from?", ("f6", "f5"), "two-hop"),
    ("Who trims Liesl's hooves?", ("f4", "f3"), "two-hop"),
    ("Which school does the person milking on winter weekends go to?", ("f15", "f16"), "two-hop"),
    ("What tractor do we have?", ("f11",), "plain"),
    ("What is Rosi afraid of?", ("f19",), "plain"),
    ("Where do the calves go?", ("f18",), "plain"),
]

FARM_NONE: list[tuple[str, str]] = [
    ("How many goats do we have?", "absent"),
    ("When does the shearer come for the sheep?", "absent"),
    ("What is our pig called?", "absent"),
    ("When is the combine harvester serviced?", "absent"),
    ("How many hectares of maize do we grow?", "absent"),
    ("How much is the lease on the upper meadow?", "absent"),
    ("When does the feed salesman visit?", "absent"),
    ("Who is our beekeeper?", "absent"),
    ("What does the Molkerei Berchtesgaden pay per litre?", "stranger"),
    ("When does Dr. Hoffmann do the herd check?", "stranger"),
    ("What breed are Franz Kögel's cows?", "stranger"),
    ("Who trims Kasimir's hooves?", "stranger"),
    ("how old is hannelore", "stranger-lower"),
    ("what does sepp do on the farm", "stranger-lower"),
    ("When is the Oktoberfest in Munich?", "offtopic"),
    ("What is the capital of Bavaria?", "offtopic"),
    ("How do I tune a guitar?", "offtopic"),
    ("Who wrote Faust?", "offtopic"),
    ("How much does a new Tesla cost?", "offtopic"),
    ("How many legs does a spider have?", "offtopic"),
    ("Explain the offside rule in football.", "offtopic"),
    ("What causes thunder and lightning?", "stuffing"),
    ("How do you make cheese at home?", "stuffing"),
    ("Why do horses sleep standing up?", "stuffing"),
    ("milk cows hay milk cows hay", "stuffing"),
    ("What is 17 times 23?", "nonsense"),
    ("blorf the hay wibble", "nonsense"),
    ("schnell schnell bitte danke", "nonsense"),
    ("¿Qué hora es en Tokio?", "nonsense"),
    ("and then what?", "nonsense"),
]

CARE: dict[str, Belief] = {
    "c1": (
        "Mum, Carmen Ortega, is 84 and lives alone in her flat in Triana, Seville.",
        "mum",
        ["Carmen Ortega", "Triana", "Seville"],
    ),
    "c2": (
        "Mum takes 5 mg of bisoprolol every morning and 20 mg of atorvastatin at night.",
        "medication",
        [],
    ),
    "c3": ("Her cardiologist is Dr. Álvaro Ibáñez.", "cardiologist", ["Álvaro Ibáñez"]),
    "c4": (
        "Dr. Ibáñez sees patients at the Hospital Virgen del Rocío, outpatients building B,"
        " third floor.",
        "clinic",
        ["Álvaro Ibáñez", "Hospital Virgen del Rocío"],
    ),
    "c5": (
        "Her next cardiology check-up is on 14 January 2027 at 10:30.",
        "cardiology appointment",
        [],
    ),
    "c6": (
        "The carer, Lucía Fernández, comes every weekday from 9 to 13 and costs 14 euros an hour.",
        "carer",
        ["Lucía Fernández"],
    ),
    "c7": (
        "Lucía's mobile number is in the shared note called 'Mamá contactos'.",
        "contacts",
        ["Lucía Fernández"],
    ),
    "c8": (
        "Mum refuses to use a walking frame indoors; she says it makes her feel old.",
        "walking frame",
        [],
    ),
    "c9": (
        "Mum has not eaten pork since her heart attack, and no salt on anything.",
        "diet",
        [],
    ),
    "c10": (
        "I call Mum every Sunday at 7 pm her time, never before 10 in the morning because she"
        " sleeps late.",
        "phone calls",
        [],
    ),
    "c11": (
        "The podiatrist, Señora Ruiz, visits every second Thursday to cut her toenails.",
        "podiatrist",
        ["Señora Ruiz"],
    ),
    "c12": (
        "My brother Javier pays half of the care costs, 600 euros a month, into the joint account.",
        "care costs",
        ["Javier"],
    ),
    "c13": (
        "Javier lives in Bilbao and visits Mum on the first weekend of each month.",
        "javier",
        ["Javier", "Bilbao"],
    ),
    "c14": ("Mum's pension is 1,150 euros a month, paid on the 25th.", "pension", []),
    "c15": (
        "Her pharmacy is Farmacia San Jacinto on Calle Pagés del Corro; they deliver on Tuesdays.",
        "pharmacy",
        ["Farmacia San Jacinto"],
    ),
    "c16": (
        "When I visit, the routine is: fly Manchester to Seville with Ryanair on a Thursday"
        " evening, stay in the spare room, take Mum to the market on Friday morning, check"
        " the fridge for food past its date, fill the pill organiser for two weeks, sort the"
        " post and any letters from the Junta, and leave on Monday after lunch.",
        "visits",
        ["Ryanair", "Junta de Andalucía"],
    ),
    "c17": (
        "Mum's hearing aid batteries are size 312 and last about a week.",
        "hearing aid",
        [],
    ),
    "c18": (
        "She had a fall in the bathroom in March 2026; a grab rail was fitted after.",
        "fall",
        [],
    ),
    "c19": (
        "Mum wears an alarm pendant from Cruz Roja; pressing it calls their response centre.",
        "alarm pendant",
        ["Cruz Roja"],
    ),
    "c20": (
        "Her GP is Dr. Moreno at the Centro de Salud Triana; repeat prescriptions are renewed"
        " every 3 months.",
        "gp",
        ["Dr. Moreno", "Centro de Salud Triana"],
    ),
    "c21": (
        "Mum won't go to the day centre; she says they only play bingo there.",
        "day centre",
        [],
    ),
    "c22": (
        "Her favourite dish is salmorejo, and she still makes it herself on Sundays.",
        "favourite food",
        [],
    ),
    "c23": (
        "The eye doctor found early cataracts; surgery is planned for spring 2027.",
        "cataracts",
        [],
    ),
    "c24": (
        "Mum's neighbour Pilar has a spare key and checks on her every evening.",
        "neighbour",
        ["Pilar"],
    ),
    "c25": ("Mum gets her flu and covid jabs each October at the Centro de Salud.", "jabs", []),
    "c26": (
        "The assessment under the Ley de Dependencia gave her Grade I, worth 20 hours of home"
        " help a month.",
        "dependency grade",
        ["Ley de Dependencia"],
    ),
    "c27": (
        "I have power of attorney for Mum's account at CaixaBank since 2025.",
        "power of attorney",
        ["CaixaBank"],
    ),
    "c28": (
        "Mum watches her telenovela at 4 pm and must not be disturbed.",
        "television",
        [],
    ),
}

CARE_Q: list[tuple[str, tuple[str, ...], str]] = [
    ("How much bisoprolol does Mum take?", ("c2",), "number"),
    ("What does the carer cost per hour?", ("c6",), "number"),
    ("How much does Javier contribute each month?", ("c12",), "number"),
    ("How much is Mum's pension?", ("c14",), "number"),
    ("What size are the hearing aid batteries?", ("c17",), "number"),
    ("How many hours of home help does her grade give?", ("c26",), "number"),
    ("How old is Mum?", ("c1",), "number"),
    ("what dose of atorvastatin is she on", ("c2",), "number"),
    ("When is the podiatrist coming?", ("c11",), "schedule"),
    ("When should I phone Mum?", ("c10",), "schedule"),
    ("When does Javier visit?", ("c13",), "schedule"),
    ("Which day does the pharmacy deliver?", ("c15",), "schedule"),
    ("When is her pension paid?", ("c14",), "schedule"),
    ("Which days does the carer come?", ("c6",), "schedule"),
    ("How often are her prescriptions renewed?", ("c20",), "schedule"),
    ("When does she get her flu jab?", ("c25",), "schedule"),
    ("When is her next heart check-up?", ("c5",), "schedule"),
    ("Does Mum eat jamón?", ("c9",), "negative"),
    ("Can I ring Mum at 8 in the morning?", ("c10",), "negative"),
    ("Should I buy Mum a walker for the flat?", ("c8",), "negative"),
    ("Would Mum like to go to a day centre?", ("c21",), "negative"),
    ("Can I add salt to Mum's food?", ("c9",), "negative"),
    ("How many weeks of pills go in the organiser?", ("c16",), "paragraph"),
    ("Which airline do I fly to Seville?", ("c16",), "paragraph"),
    ("When do I leave after a visit?", ("c16",), "paragraph"),
    ("Who is Lucia Fernandez?", ("c6",), "foreign"),
    ("Where is Farmacia San Jacinto?", ("c15",), "foreign"),
    ("what is mums favourite dish", ("c22",), "foreign"),
    ("Who is Senora Ruiz?", ("c11",), "foreign"),
    ("What grade did Mum get under the Ley de Dependencia?", ("c26",), "foreign"),
    ("What is the Cruz Roja pendant for?", ("c19",), "foreign"),
    ("Where does Mum live?", ("c1",), "foreign"),
    ("Where does Mum's cardiologist see patients?", ("c3", "c4"), "two-hop"),
    ("Which floor is Mum's heart doctor on?", ("c3", "c4"), "two-hop"),
    ("Where does the brother who pays half the care costs live?", ("c12", "c13"), "two-hop"),
    ("Where do I find the carer's phone number?", ("c6", "c7"), "two-hop"),
    ("Who has a spare key to Mum's flat?", ("c24",), "plain"),
    ("When did Mum fall?", ("c18",), "plain"),
    ("What did the eye doctor find?", ("c23",), "plain"),
    ("Who can manage Mum's bank account?", ("c27",), "plain"),
    ("What does Mum watch in the afternoon?", ("c28",), "plain"),
    ("Who is Mum's GP?", ("c20",), "plain"),
]

CARE_NONE: list[tuple[str, str]] = [
    ("When is Mum's dentist appointment?", "absent"),
    ("Who is Mum's physiotherapist?", "absent"),
    ("How much does my sister pay towards the care?", "absent"),
    ("What is Mum's insulin dose?", "absent"),
    ("When is Mum's hip operation?", "absent"),
    ("What does Dad take for his blood pressure?", "absent"),
    ("Which bus does Mum take to the market?", "absent"),
    ("What is the password for Mum's email?", "absent"),
    ("What is Carmen Vidal's pension?", "stranger"),
    ("Where does Dr. Castillo see patients?", "stranger"),
    ("What does Abuela Rosario like to eat?", "stranger"),
    ("When does Señor Delgado visit?", "stranger"),
    ("Who is Enrique Salvatierra?", "stranger"),
    ("what does lola take for her heart", "stranger-lower"),
    ("when does paquita visit", "stranger-lower"),
    ("How do I make paella?", "offtopic"),
    ("How do I renew a British passport?", "offtopic"),
    ("Who won La Liga in 2010?", "offtopic"),
    ("How do I fix a dripping tap?", "offtopic"),
    ("What is a good dog breed for a small flat?", "offtopic"),
    ("How many people live in Seville?", "stuffing"),
    ("Why do flamenco dancers wear red?", "stuffing"),
    ("What is the history of the Alhambra?", "offtopic"),
    ("Which planet has the most moons?", "offtopic"),
    ("pills pills Sunday Sunday Mum", "stuffing"),
    ("gazpacho flurb pendant quux", "nonsense"),
    ("¿Dónde está la biblioteca?", "nonsense"),
    ("lorem ipsum dolor sit amet", "nonsense"),
    ("12 34 56 78", "nonsense"),
    ("ok and then?", "nonsense"),
]

THESIS: dict[str, Belief] = {
    "t1": (
        "My PhD is on nitrogen uptake in drought-stressed wheat roots, at Utrecht University.",
        "phd topic",
        ["Utrecht University"],
    ),
    "t2": (
        "My promotor is Prof. Ingrid Bakker; my daily supervisor is Dr. Joost van Dijk.",
        "supervisors",
        ["Ingrid Bakker", "Joost van Dijk"],
    ),
    "t3": (
        "Ingrid Bakker is on sabbatical in Canberra until July 2027.",
        "sabbatical",
        ["Ingrid Bakker", "Canberra"],
    ),
    "t4": ("Lab meetings are every second Thursday at 14:00 in room Z-207.", "lab meeting", []),
    "t5": (
        "My salary is 2,770 euros gross a month, rising to 3,539 in the fourth year.",
        "salary",
        [],
    ),
    "t6": (
        "The thesis is due on 1 September 2028; the contract ends on 31 August 2028.",
        "thesis deadline",
        [],
    ),
    "t7": (
        "Chapter 2, the rhizotron experiment, was submitted to Plant and Soil in October 2026.",
        "chapter 2",
        ["Plant and Soil"],
    ),
    "t8": (
        "Growth chamber 4 is booked for me from 6 January to 28 February 2027.",
        "growth chamber",
        [],
    ),
    "t9": (
        "The current experiment has 96 pots: 4 genotypes, 3 water levels, 8 replicates.",
        "experiment design",
        [],
    ),
    "t10": (
        "Watering is at 8:00 and 18:00; on weekends Mehmet covers the evening round.",
        "watering",
        ["Mehmet Yıldız"],
    ),
    "t11": (
        "Mehmet Yıldız is a master's student who helps with the root scanning.",
        "mehmet",
        ["Mehmet Yıldız"],
    ),
    "t12": (
        "I never present unpublished data at a conference without Joost's okay.",
        "unpublished data",
        ["Joost van Dijk"],
    ),
    "t13": ("I don't answer work email on Sundays.", "email", []),
    "t14": (
        "The R scripts are in the GitLab repository roots-n15; the raw scans are on the"
        " faculty drive.",
        "data storage",
        ["GitLab"],
    ),
    "t15": (
        "The isotope protocol: label each pot with 15N ammonium nitrate at 5 mg per pot,"
        " harvest after 48 hours, separate roots from shoots, dry them at 70 °C for three"
        " days, grind them in the ball mill, weigh 3 mg into tin capsules, and send the"
        " capsules to the isotope lab in Wageningen, which charges 11 euros a sample and takes"
        " six weeks.",
        "isotope protocol",
        ["Wageningen"],
    ),
    "t16": (
        "Teaching is 10% of my time: I assist in the plant physiology practical every spring.",
        "teaching",
        [],
    ),
    "t17": ("My go/no-go evaluation passed in March 2026.", "go/no-go", []),
    "t18": (
        "The EGU General Assembly in Vienna is in April 2027; the abstract deadline is"
        " 10 January 2027.",
        "egu",
        ["EGU", "Vienna"],
    ),
    "t19": (
        "The graduate school gives travel grants of up to 750 euros, twice a year.",
        "travel grant",
        [],
    ),
    "t20": (
        "Joost wants drafts as Word files with tracked changes, not LaTeX PDFs.",
        "drafts",
        ["Joost van Dijk"],
    ),
    "t21": ("The department's Christmas borrel is on 18 December.", "borrel", []),
    "t22": (
        "The root scanner is an Epson V850; it needs a booking on the lab calendar.",
        "root scanner",
        ["Epson"],
    ),
    "t23": (
        "My external committee member is Dr. Sofía Quiroga from the Universidad de Córdoba.",
        "committee",
        ["Sofía Quiroga", "Universidad de Córdoba"],
    ),
    "t24": (
        "Sofía Quiroga's group works on the root hydraulics of olive trees.",
        "quiroga group",
        ["Sofía Quiroga"],
    ),
    "t25": ("I get 29 vacation days a year and have 12 left for 2026.", "vacation", []),
    "t26": (
        "The wheat genotypes are Chinese Spring, Paragon, Cadenza and Fielder.",
        "genotypes",
        [],
    ),
    "t27": (
        "I won't use the old centrifuge in Z-115 since it cracked a rotor.",
        "centrifuge",
        [],
    ),
    "t28": ("My weekly check-in with Joost is on Monday at 10.", "check-in", ["Joost van Dijk"]),
}

THESIS_Q: list[tuple[str, tuple[str, ...], str]] = [
    ("How much do I earn a month?", ("t5",), "number"),
    ("How many pots are in the experiment?", ("t9",), "number"),
    ("How much 15N goes into each pot?", ("t15",), "number"),
    ("How much money can I get for travel?", ("t19",), "number"),
    ("How many vacation days do I have left?", ("t25",), "number"),
    ("What share of my time is teaching?", ("t16",), "number"),
    ("how many replicates per treatment", ("t9",), "number"),
    ("What does the isotope lab charge per sample?", ("t15",), "number"),
    ("When are lab meetings?", ("t4",), "schedule"),
    ("When is my weekly meeting with Joost?", ("t28",), "schedule"),
    ("What time are the plants watered?", ("t10",), "schedule"),
    ("When do I have the growth chamber?", ("t8",), "schedule"),
    ("When is my thesis due?", ("t6",), "schedule"),
    ("When is the EGU abstract deadline?", ("t18",), "schedule"),
    ("When is Ingrid back?", ("t3",), "schedule"),
    ("When do I teach?", ("t16",), "schedule"),
    ("Can I show unpublished results at a conference?", ("t12",), "negative"),
    ("Should I send Joost my draft as a LaTeX PDF?", ("t20",), "negative"),
    ("Will I reply to a work email on Sunday?", ("t13",), "negative"),
    ("Can I use the centrifuge in Z-115?", ("t27",), "negative"),
    ("What temperature are the samples dried at?", ("t15",), "paragraph"),
    ("How long do the isotope results take?", ("t15",), "paragraph"),
    ("How much sample goes into a tin capsule?", ("t15",), "paragraph"),
    ("Who is Mehmet Yildiz?", ("t11",), "foreign"),
    ("What does Sofia Quiroga's group study?", ("t24",), "foreign"),
    ("when is the borrel", ("t21",), "foreign"),
    ("Who is Joost van Dijk?", ("t2",), "foreign"),
    ("Which university is my external committee member from?", ("t23",), "foreign"),
    ("Who is my promotor?", ("t2",), "foreign"),
    ("What does my external committee member's group work on?", ("t23", "t24"), "two-hop"),
    ("Where is my promotor at the moment?", ("t2", "t3"), "two-hop"),
    ("What does the person who waters on weekend evenings study?", ("t10", "t11"), "two-hop"),
    ("What is my PhD about?", ("t1",), "plain"),
    ("Where did chapter 2 go?", ("t7",), "plain"),
    ("Where are the R scripts?", ("t14",), "plain"),
    ("Did my go/no-go pass?", ("t17",), "plain"),
    ("Which wheat varieties do I grow?", ("t26",), "plain"),
    ("What scanner do we use for roots?", ("t22",), "plain"),
    ("Who is my daily supervisor?", ("t2",), "plain"),
    ("Where is the EGU held?", ("t18",), "plain"),
]

THESIS_NONE: list[tuple[str, str]] = [
    ("When is my defence date?", "absent"),
    ("What will my postdoc salary be?", "absent"),
    ("When is the ASA abstract deadline?", "absent"),
    ("How many pots of barley do I have?", "absent"),
    ("Who is my second examiner from Leiden?", "absent"),
    ("When are the tomato plants watered?", "absent"),
    ("How much does the mass spectrometry course cost?", "absent"),
    ("When is chapter 4 due?", "absent"),
    ("When does Prof. Hendriks return from sabbatical?", "stranger"),
    ("What does Dr. Okonkwo's group work on?", "stranger"),
    ("What does Pieter think of my chapter 3?", "stranger"),
    ("When is my weekly meeting with Femke?", "stranger"),
    ("Who is Marloes de Graaf?", "stranger"),
    ("who is anouk", "stranger-lower"),
    ("what does bram study", "stranger-lower"),
    ("What is the capital of the Netherlands?", "offtopic"),
    ("How do I cite a website in APA style?", "offtopic"),
    ("Who discovered penicillin?", "offtopic"),
    ("How far is Vienna from Prague?", "stuffing"),
    ("How does photosynthesis work?", "stuffing"),
    ("Why are tulips associated with Holland?", "offtopic"),
    ("What is the speed of light?", "offtopic"),
    ("How do I bake stroopwafels?", "offtopic"),
    ("What is the best olive oil for frying?", "stuffing"),
    ("root root root water water", "stuffing"),
    ("gezellig fiets hagelslag", "nonsense"),
    ("42", "nonsense"),
    ("xyzzy plugh", "nonsense"),
    ("hmm maybe later", "nonsense"),
    ("¿Cuántos años tienes?", "nonsense"),
]

GIGS: dict[str, Belief] = {
    "g1": (
        "I play bass in the cumbia band Los Tigres del Raval.",
        "band",
        ["Los Tigres del Raval"],
    ),
    "g2": (
        "Our fee for a club gig is 900 euros for the band, split five ways.",
        "gig fee",
        [],
    ),
    "g3": (
        "We rehearse every Tuesday from 20:00 to 23:00 at the Sala Bemol studios.",
        "rehearsal",
        ["Sala Bemol"],
    ),
    "g4": (
        "The next gig is at Sala Apolo in Barcelona on 7 February 2027, doors at 21:00.",
        "next gig",
        ["Sala Apolo", "Barcelona"],
    ),
    "g5": (
        "We don't play weddings any more, not since the disaster in Girona.",
        "weddings",
        ["Girona"],
    ),
    "g6": (
        "My main bass is a 1978 Fender Precision strung with flatwounds.",
        "main bass",
        ["Fender Precision"],
    ),
    "g7": (
        "The backup bass is a Squier Jazz that stays in the rehearsal room.",
        "backup bass",
        ["Squier"],
    ),
    "g8": (
        "The amp is a Markbass Little Mark III head into a 4x10 cabinet, 26 kg in all.",
        "amp",
        ["Markbass"],
    ),
    "g9": ("I change strings every 3 months, or before any recording.", "strings", []),
    "g10": (
        "Our drummer, Nuria Solé, books the gigs and keeps 10% for the band fund.",
        "booking",
        ["Nuria Solé"],
    ),
    "g11": (
        "Nuria's other band is a jazz trio that plays at the Jamboree on Mondays.",
        "jazz trio",
        ["Nuria Solé", "Jamboree"],
    ),
    "g12": (
        "Our singer, Óscar Peña, writes the lyrics in Spanish and Catalan.",
        "singer",
        ["Óscar Peña"],
    ),
    "g13": (
        "Óscar is allergic to smoke machines, so we ask venues to switch them off.",
        "smoke machines",
        ["Óscar Peña"],
    ),
    "g14": ("I never lend my Precision to anyone.", "lending", ["Fender Precision"]),
    "g15": (
        "The load-in checklist: arrive two hours before doors, bring the DI box, a spare set"
        " of strings, the tuner, gaffer tape, the setlist printed in 18-point type, two XLR"
        " cables and my in-ear monitors; the van is loaded cabs first, then drums, keys and"
        " merch, and the merch box goes to Marta at the door.",
        "load-in checklist",
        ["Marta"],
    ),
    "g16": (
        "Marta runs the merch stand; t-shirts are 20 euros and the vinyl is 25.",
        "merch",
        ["Marta"],
    ),
    "g17": (
        "We released the album Fuego Lento in May 2026 on the label Discos Pachanga.",
        "album",
        ["Fuego Lento", "Discos Pachanga"],
    ),
    "g18": (
        "The summer tour: Primavera Pop in Madrid on 12 June 2027 and the Fête de la Musique"
        " in Toulouse on 21 June.",
        "summer tour",
        ["Primavera Pop", "Madrid", "Toulouse"],
    ),
    "g19": (
        "The van is a 2011 Renault Trafic; its ITV inspection is due in April.",
        "van",
        ["Renault Trafic"],
    ),
    "g20": (
        "I teach bass on Wednesday and Thursday afternoons, 35 euros an hour.",
        "lessons",
        [],
    ),
    "g21": (
        "I am registered with SGAE; royalties are paid twice a year, in July and December.",
        "royalties",
        ["SGAE"],
    ),
    "g22": ("I don't drink before a show; one beer after the last song.", "drinking", []),
    "g23": (
        "Soundcheck usually runs 45 minutes, and Dani always needs the longest.",
        "soundcheck",
        ["Dani"],
    ),
    "g24": ("Dani plays a Nord Stage 3 and a Farfisa organ from the sixties.", "keys", ["Dani"]),
    "g25": (
        "My in-ear monitors are Shure SE425 with custom tips made in 2025.",
        "in-ears",
        ["Shure"],
    ),
    "g26": ("The band has about 14,000 monthly listeners on Spotify.", "spotify", []),
    "g27": ("I practise scales for 30 minutes every morning before coffee.", "practice", []),
    "g28": ("Our set always ends with La Cumbia del Metro.", "closing song", []),
}

GIGS_Q: list[tuple[str, tuple[str, ...], str]] = [
    ("How much do we get for a club gig?", ("g2",), "number"),
    ("How much is my share of a club gig?", ("g2",), "number"),
    ("How heavy is my amp rig?", ("g8",), "number"),
    ("What do I charge for a bass lesson?", ("g20",), "number"),
    ("How much is a t-shirt at the merch stand?", ("g16",), "number"),
    ("What cut does Nuria take?", ("g10",), "number"),
    ("How many monthly listeners do we have?", ("g26",), "number"),
    ("How long is soundcheck?", ("g23",), "number"),
    ("how much is the vinyl", ("g16",), "number"),
    ("When is rehearsal?", ("g3",), "schedule"),
    ("When is our next gig?", ("g4",), "schedule"),
    ("How often do I change strings?", ("g9",), "schedule"),
    ("When are royalties paid?", ("g21",), "schedule"),
    ("When do I give lessons?", ("g20",), "schedule"),
    ("When is the van's ITV due?", ("g19",), "schedule"),
    ("When do we play Toulouse?", ("g18",), "schedule"),
    ("When does Nuria's trio play?", ("g11",), "schedule"),
    ("When do I practise scales?", ("g27",), "schedule"),
    ("Can we take a wedding booking in June?", ("g5",), "negative"),
    ("Can my friend borrow my P-bass for a gig?", ("g14",), "negative"),
    ("Should I have a beer before going on stage?", ("g22",), "negative"),
    ("Can the venue run the smoke machine during our set?", ("g13",), "negative"),
    ("What size is the setlist printed in?", ("g15",), "paragraph"),
    ("Who gets the merch box at the door?", ("g15",), "paragraph"),
    ("How early do we arrive before doors?", ("g15",), "paragraph"),
    ("what order is the van loaded in", ("g15",), "paragraph"),
    ("When do we play Sala Apolo?", ("g4",), "foreign"),
    ("Who is Oscar Pena?", ("g12",), "foreign"),
    ("Where do we rehearse?", ("g3",), "foreign"),
    ("Which label put out Fuego Lento?", ("g17",), "foreign"),
    ("Which languages are our lyrics in?", ("g12",), "foreign"),
    ("What's the last song of the set?", ("g28",), "foreign"),
    ("What is Los Tigres del Raval?", ("g1",), "foreign"),
    ("What does our drummer do on Mondays?", ("g10", "g11"), "two-hop"),
    (
        "Which keyboards does the one who needs the longest soundcheck play?",
        ("g23", "g24"),
        "two-hop",
    ),
    ("What bass do I play live?", ("g6",), "plain"),
    ("What's my backup bass?", ("g7",), "plain"),
    ("Which in-ears do I use?", ("g25",), "plain"),
    ("What van do we drive?", ("g19",), "plain"),
    ("When did our album come out?", ("g17",), "plain"),
]

GIGS_NONE: list[tuple[str, str]] = [
    ("What does our guitarist earn from the band?", "absent"),
    ("Who is our trumpet player?", "absent"),
    ("How many copies did our second album sell?", "absent"),
    ("When is the recording session at the studio in Madrid?", "absent"),
    ("What microphone does our singer use on stage?", "absent"),
    ("When do we play the Sónar festival?", "absent"),
    ("What is the wifi password at Sala Bemol?", "absent"),
    ("Which pedals are on my pedalboard?", "absent"),
    ("When is the gig at Razzmatazz?", "stranger"),
    ("What strings does Pau Casals Ferrer use?", "stranger"),
    ("What does Jordi play in the band?", "stranger"),
    ("When does Montserrat's choir rehearse?", "stranger"),
    ("Who is Rocío Aguirre?", "stranger"),
    ("what does txema play", "stranger-lower"),
    ("when is ainhoa's gig", "stranger-lower"),
    ("How do you make a tortilla española?", "offtopic"),
    ("Who composed The Four Seasons?", "offtopic"),
    ("How do I get a visa for Japan?", "offtopic"),
    ("What is the tallest building in Barcelona?", "stuffing"),
    ("How do bats find their way in the dark?", "offtopic"),
    ("What is the price of gold today?", "offtopic"),
    ("How many strings does a harp have?", "stuffing"),
    ("Why do tigers have stripes?", "stuffing"),
    ("Who was the first person on the moon?", "offtopic"),
    ("cumbia cumbia bass bass gig", "stuffing"),
    ("¿Qué tal estás hoy?", "nonsense"),
    ("blip blop bloop", "nonsense"),
    ("yes no maybe", "nonsense"),
    ("9 9 9 9", "nonsense"),
    ("flerp the snorkel-wagon", "nonsense"),
]

MEMORIES = {
    "farm": (FARM, FARM_Q, FARM_NONE),
    "care": (CARE, CARE_Q, CARE_NONE),
    "thesis": (THESIS, THESIS_Q, THESIS_NONE),
    "gigs": (GIGS, GIGS_Q, GIGS_NONE),
}


def probe() -> Probe:
    """The four memories and their questions, each answerable one tagged with its facet."""
    out: Probe = {}
    for name, (beliefs, answerable, none) in MEMORIES.items():
        drafts = user_drafts(beliefs)
        questions = [Question(q, a, "answer", tag=tag) for q, a, tag in answerable]
        questions += [Question(q, (), kind) for q, kind in none]
        out[name] = (drafts, questions)
    return out


def asked(embedder: str) -> list[Asked]:
    """Every question of every memory, recalled with ``embedder``."""
    return ask(embedder, "recallflow_facets", probe())


if __name__ == "__main__":
    main(asked, __doc__ or "")
