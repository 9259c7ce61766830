"""English filler: small talk and unrelated tasks that surround the planted facts."""

from .bank import parse_threads

# Data tables: kept compact, one line per group of alternatives rather than one per value.
# fmt: off
VOCAB = {
    "name": ("Priya", "Tomasz", "Aisha", "Declan", "Mei", "Rafael", "Ingrid", "Kwame", "Lucia", "Hamid",
             "Sofia", "Bjorn", "Nadia", "Elliot", "Yusuf", "Carmen", "Oskar", "Leila", "Malcolm", "Esther",
             "Dmitri", "Fiona", "Gustavo", "Hana", "Ivan", "Jolene", "Kenji", "Marta", "Nico", "Olu"),
    "city": ("Denver", "Glasgow", "Osaka", "Nairobi", "Krakow", "Seville", "Melbourne", "Toronto", "Bristol",
             "Lyon", "Austin", "Gdansk", "Bergen", "Cork", "Perth", "Leipzig", "Halifax", "Utrecht"),
    "food": ("lasagne", "falafel wraps", "ramen", "fish tacos", "a Greek salad", "dumplings", "chili",
             "banana bread", "pancakes", "grilled cheese", "tomato soup", "fried rice", "poke bowls",
             "quesadillas", "apple crumble", "gnocchi", "burritos", "veggie curry"),
    "place": ("the farmers market", "the library", "the climbing gym", "the park by the river", "the mall",
              "the community pool", "the hardware store", "the garden centre", "the bakery on the corner",
              "the cinema", "the post office", "the bike shop"),
    "job": ("a nurse", "a software tester", "a bus driver", "an architect", "a paralegal", "a pharmacist",
            "a chef", "a physiotherapist", "a UX designer", "a high school teacher", "an electrician",
            "a journalist", "a dental hygienist", "an accountant", "a translator"),
    "hobby": ("knitting", "rock climbing", "baking", "chess problems", "photography", "gardening", "running",
              "watercolour painting", "jigsaw puzzles", "board games", "ukulele", "crosswords", "cycling",
              "swimming", "yoga", "origami"),
    "product": ("wireless earbuds", "an air fryer", "a mechanical keyboard", "a smartwatch", "an e-bike",
                "a coffee grinder", "a portable speaker", "a rice cooker", "a monitor arm", "a dehumidifier",
                "a tablet", "a fitness tracker", "a drip kettle", "a power bank"),
    "show": ("The Crown", "a baking competition show", "a true-crime documentary", "a nature series",
             "an old sitcom", "a detective drama", "a cooking travelogue", "a space documentary"),
    "team": ("the Rovers", "the Hornets", "the Mariners", "United", "the Falcons", "the Royals", "City"),
    "weekday": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday"),
    "num": ("3", "4", "5", "6", "12", "15", "20", "25", "40", "45", "60", "90", "120", "250"),
    "topic": ("compound interest", "how vaccines work", "the greenhouse effect", "inflation", "how GPS works",
              "photosynthesis", "the difference between a virus and bacteria", "how noise-cancelling works",
              "why the sky is blue", "how credit scores work", "what a VPN does", "how tides work",
              "blockchain in plain words", "how a heat pump works"),
    "plang": ("Python", "JavaScript", "SQL", "Go", "Rust", "Bash", "TypeScript", "Java"),
    "pet": ("hamster", "goldfish", "budgie", "tortoise", "guinea pig", "gecko", "rabbit"),
    "colour": ("navy", "olive green", "terracotta", "mustard yellow", "charcoal", "teal", "burgundy"),
    "fruit": ("mangoes", "blueberries", "peaches", "plums", "cherries", "pears", "figs", "apricots"),
    "country": ("Portugal", "Vietnam", "Chile", "Norway", "Morocco", "Canada", "Greece", "Japan", "Mexico"),
    "drink": ("green tea", "lemonade", "hot chocolate", "sparkling water", "iced tea", "chai", "kombucha"),
    "sport": ("football", "tennis", "basketball", "cricket", "rugby", "volleyball", "badminton"),
    "plant": ("monstera", "peace lily", "snake plant", "fiddle-leaf fig", "basil", "orchid", "pothos"),
    "game": ("Catan", "Ticket to Ride", "Codenames", "Carcassonne", "Scrabble", "Pandemic", "Azul"),
    "artist": ("Nina Simone", "Fleetwood Mac", "Bach", "Radiohead", "Miles Davis", "ABBA", "Bjork"),
    "subject": ("statistics", "Spanish", "art history", "economics", "organic chemistry", "music theory"),
}

THREADS = parse_threads("""
U: Can you help me write a short email to {name} moving our meeting to {weekday}? | I need to push my sync with {name} to {weekday}. Could you draft a polite note?
A: Sure: "Hi {name}, would it be okay to move our meeting to {weekday}? Something came up on my side. Thanks for understanding!" | Here's a draft: "Hi {name}, could we shift our catch-up to {weekday}? Sorry for the reshuffle."
U: Make it a little less formal. | Can you make it shorter?
A: "Hey {name}, mind if we do {weekday} instead? Thanks!" | "Hi {name}, {weekday} instead? Cheers!"
---
U: Explain {topic} like I'm twelve. | Can you give me a simple explanation of {topic}?
A: Happy to. Think of it as a story with a few moving parts; I'll walk through them one at a time and keep the jargon out. | Sure. The short version fits in three sentences, and then I can add detail if you want it.
U: That helps. Is there a good analogy? | Okay, and why does it matter day to day?
A: A common one is a bathtub with the tap running and the drain open: what matters is the balance between the two. | Mostly because it quietly affects decisions you make without noticing, so knowing the basics pays off.
---
U: What's a good stretch routine for someone who sits all day? | My back is stiff from sitting at a desk. Any quick stretches?
A: Try five minutes: cat-cow, a hip flexor lunge on each side, a doorway chest stretch, and slow neck rolls. Do it twice a day. | A few that help: seated twists, standing hamstring folds, and shoulder blade squeezes. Hold each for about thirty seconds.
---
U: How do I reverse a list in {plang}? | Quick {plang} question: what's the cleanest way to reverse a list?
A: In most languages there's a built-in for it; in {plang} you can use the standard library's reverse helper rather than writing a loop. | There's usually a one-liner. For {plang} I'd use the built-in reverse and keep the original untouched if you still need it.
U: And if I only want unique items? | What about removing duplicates while keeping the order?
A: Walk the list once, remember what you've seen in a set, and keep an item only the first time it shows up.
---
U: It's pouring again here. Third rainy {weekday} in a row. | The weather has been grey for days and it's getting to me.
A: That's rough. A bright lamp in the morning and a short walk at lunch can make a surprising difference. | Long grey spells really do affect mood. Anything cosy planned for the evening?
U: I might just make {food} and watch {show}. | Probably {drink} and {show} on the sofa.
A: Honestly, that sounds like the right call. | A solid plan for a wet evening.
---
U: My friend {name} is {job} and is thinking of switching careers. Any advice I can pass on? | {name} wants to leave their job as {job}. What should they consider?
A: Suggest listing the parts of the current work they enjoy, then talking to three people in the target field before quitting anything. | A low-risk start is a short course or side project in the new field, so they can test it before jumping.
---
U: What's {num} percent of 380? | Quick maths: {num} percent of 380?
A: Multiply 380 by {num} and divide by 100; I can show the steps if you like. | It's 380 times {num} over 100. Want the exact figure worked out?
U: No, that's fine, I just needed the method. | Got it, thanks.
A: No problem. | Anytime.
---
U: Any tips for keeping a {plant} alive? Mine looks sad. | My {plant} has yellow leaves. What am I doing wrong?
A: Yellow leaves usually mean too much water. Let the top few centimetres of soil dry out before watering again, and give it bright, indirect light. | Check the drainage first; soggy roots are the usual culprit. Then move it somewhere brighter.
U: It's next to a north-facing window. | I water it every {weekday}.
A: Then light may be the issue. A spot near an east window would suit it better. | A fixed schedule can overdo it; water when the soil feels dry instead.
---
U: Did you see {team} lost again? | {team} finally won a match!
A: I don't follow live scores, but I'm happy to talk tactics or look at the season so far. | Nice! Was it a close one?
U: The defence was a mess. | It went to the last minute.
A: Sounds like a nervy watch. | Those are the games people remember.
---
U: Can you recommend a board game for four adults who don't like long rules? | We're hosting a game night. Something easy to learn?
A: {game} is a good pick: quick to teach, and nobody feels left out. | Try {game}. Most groups pick it up in ten minutes.
U: We already own {game}. Something else? | Is {game2} any good?
A: Then {game2} might be a nice change of pace. | Yes, {game2} works well with four, and rounds are short.
---
U: I'm learning {subject} in the evenings and it's slow going. | Any tips for studying {subject} after work when I'm tired?
A: Short sessions beat long ones: twenty-five minutes, a quick self-test, then stop. Spacing it over the week helps it stick. | Try studying before dinner rather than after, and end each session by writing down one question for next time.
---
U: Write a two-line poem about {fruit}. | Give me a silly rhyme about {fruit}.
A: Summer kept its promise, small and sweet; / a bowl of {fruit} and nothing else to eat. | Oh {fruit} in a bowl on the sill, / you vanish so fast, and you always will.
U: Ha, nice. | Cute, thanks!
A: Glad you liked it. | Anytime!
---
U: My {pet} hasn't been eating much. Should I worry? | Is it normal for a {pet} to sleep this much?
A: A short change can be normal, but if it lasts more than a day or two, a vet visit is wise, especially for small animals. | Some variation is normal. Watch for weight loss or lethargy, and call a vet if it continues.
---
U: Convert {num} miles to kilometres for me. | How many kilometres is {num} miles?
A: Multiply by about 1.609; that gives you the distance in kilometres. | Roughly {num} times 1.6. I can give the exact value if you need it.
---
U: I'm thinking about buying {product}. Worth it? | Is {product} a good purchase or a gimmick?
A: It depends on how often you'd use it. If it replaces something you do daily, usually yes. | Read a couple of long-term reviews; the first week's excitement tells you little.
U: I'd use it most days. | Probably a few times a week.
A: Then it's likely worth it; look for a model with a decent warranty. | Then a mid-range model is the sweet spot.
---
U: What should I pack for a weekend in {city}? | Heading to {city} for two days. Packing suggestions?
A: Layers, comfortable walking shoes, a compact umbrella, and a charger. Check the forecast the night before. | Keep it light: one warm layer, one smart outfit, good shoes, and a tote for whatever you buy.
U: Anything I shouldn't miss there? | Any food I should try?
A: Ask a local at breakfast; the best tips rarely show up in guidebooks. | Try whatever the busiest small place near the station is serving.
---
U: Help me name my {colour} bicycle. | I painted my old bike {colour}. It needs a name.
A: How about "The {colour} Comet" or "Sir Pedals"? | "Rusty Thunder" if it squeaks, or "The {colour} Streak" if it's fast.
---
U: What's the difference between a latte and a macchiato? | Is a flat white stronger than a latte?
A: Mostly the milk ratio: a macchiato is espresso with just a dash of foam; a latte is mostly steamed milk. | Usually yes: less milk, so the espresso comes through more.
---
U: Give me a quick dinner idea with what I have: eggs, spinach, and some cheese. | What can I make with rice, frozen peas, and eggs?
A: A spinach and cheese omelette takes ten minutes. Add toast and you're done. | Egg fried rice: scramble the eggs, toss in the rice and peas, add soy sauce.
---
U: How do I politely decline a wedding invitation from {name}? | I can't make {name}'s wedding. What do I say?
A: Reply early, say you're sorry to miss it, wish them well, and send a small gift or card. | Something like: "We're so sorry we can't be there, but we'll be celebrating you from afar." A card goes a long way.
---
U: Can you summarise the main causes of the French Revolution in three bullet points? | Three bullet points on why the Roman Empire fell?
A: Money trouble and debt; anger at privileges and unfair taxes; and new ideas about rights spreading fast. | Overstretched borders; political instability and civil wars; and economic strain, among other factors historians debate.
---
U: I can't sleep lately. Any advice? | How do I stop waking up at 4 am?
A: Keep the same wake time every day, cut caffeine after noon, and keep your phone out of the bedroom. | Try a cooler room, dimmer evenings, and getting daylight soon after waking. If it persists, talk to a doctor.
---
U: Write a cheerful birthday message for my coworker {name}. | I need a line for {name}'s farewell card.
A: "Happy birthday, {name}! Thanks for making the office a brighter place." | "{name}, it's been a joy working with you. Good luck with the next adventure!"
---
U: What's a good {hobby} goal for a beginner? | I just got into {hobby}. How do I stay motivated?
A: Pick something small and visible, like a weekly session for a month, and keep a simple log. | Find one other person who does it; plans with a friend are harder to skip.
U: I like the log idea. | A friend of mine, {name}, might join.
A: Great, keep it to one line per session so it stays easy. | Perfect, that'll help a lot.
---
U: Write me a SQL query that counts orders per customer. | How do I count rows per group in SQL?
A: SELECT customer_id, COUNT(*) AS orders FROM orders GROUP BY customer_id; | Use GROUP BY with COUNT(*): group on the column you care about and count each group.
U: And only customers with more than {num}? | How do I sort by the count?
A: Add HAVING COUNT(*) > {num} after the GROUP BY. | Add ORDER BY orders DESC at the end.
---
U: My laptop fan is really loud. | Why does my laptop get hot when I'm just browsing?
A: Check for a runaway process first, then clean the vents with compressed air. A stand helps airflow. | Browser tabs with video or heavy scripts can do it. Close a few and see if it settles.
---
U: We're visiting {country} and I want to learn a few phrases. | What are the first ten phrases to learn before a trip to {country}?
A: Hello, please, thank you, excuse me, how much is this, where is the toilet, the bill please, I don't understand, yes, and no. | Greetings and thanks first, then numbers and "how much". People appreciate the effort even if it's clumsy.
---
U: Any podcast-free ideas for a long drive? | How do I keep kids entertained on a three-hour drive?
A: Audiobooks, a shared playlist where everyone adds songs, or old-school games like twenty questions. | Snacks in small bags, an audiobook, and a game of spotting {colour} cars.
---
U: What's a good beginner workout if I only have {num} minutes? | I have {num} minutes. Quick home workout?
A: Circuit: squats, push-ups, lunges, plank, jumping jacks. Forty seconds each, twenty seconds rest, repeat. | Warm up for three minutes, then alternate bodyweight squats and push-ups, and finish with a plank.
---
U: Is {artist} worth getting into? | Where should I start with {artist}?
A: Start with the most famous album and one live recording; if you like both, go deeper. | A best-of collection is a fine entry point, then pick the album you liked most songs from.
---
U: Fix the grammar: "Me and him goes to the store every days." | Is it "fewer" or "less" people?
A: "He and I go to the store every day." | "Fewer people": use "fewer" for things you can count.
---
U: I'm hosting {name} and {name2} for {food} on {weekday}. What drink goes with it? | What dessert goes after {food}?
A: {drink} works nicely, and it's easy to make in a big jug. | Something light: fruit, sorbet, or a small plate of biscuits.
---
U: My colleague {name} keeps interrupting in meetings. How do I handle it? | How do I give feedback to {name} without sounding harsh?
A: Try a calm "I'd like to finish this point" in the moment, and a friendly private chat afterwards. | Be specific and kind: describe what happened, its effect, and what you'd like instead.
---
U: How long should I boil an egg for a runny yolk? | How do I keep pasta from sticking?
A: About six minutes from boiling, then straight into cold water. | Plenty of water, a good stir in the first minute, and don't overcook it.
---
U: I'm moving flats in {city} next month and dreading it. | Any tips for packing up a whole flat?
A: Start with rarely used things, label every box by room, and keep an essentials box for the first night. | Pack one room a day, photograph cable setups before unplugging, and book help early.
---
U: Tell me a fun fact. | I'm bored. Teach me something random.
A: Octopuses have three hearts, and two of them stop beating when they swim. | Honey found in ancient tombs was still edible after thousands of years.
U: No way. | That's wild.
A: Nature is strange! | True, as far as anyone can tell.
---
U: Should I learn {plang} or {plang2} first? | Which is easier for beginners, {plang} or {plang2}?
A: Pick the one that fits what you want to build; the concepts transfer either way. | Both are learnable. Choose by the projects you care about, not the language.
---
U: What's a good gift for a {num}-year-old who loves {hobby}? | Gift idea for my nephew, who's into {hobby}?
A: A beginner kit plus a book on the subject usually goes down well. | Something that lets them do it with friends, or a workshop voucher.
---
U: How do I get a red wine stain out of a white shirt? | Best way to clean a greasy oven tray?
A: Blot, rinse with cold water from the back, then apply a bit of washing-up liquid before laundering. | Soak it in hot water with baking soda for an hour, then scrub with a non-scratch pad.
---
U: Can you tighten this résumé bullet: "Was responsible for doing reports every week for the team"? | Make this CV line sound stronger: "Helped with onboarding new people."
A: "Produced weekly performance reports used by a team of {num} to set priorities." | "Onboarded {num} new hires, cutting ramp-up time with a shared checklist."
U: Nice. Should I add numbers everywhere? | Is it okay to estimate the number?
A: Where they're honest and meaningful, yes; numbers make a claim concrete. | Yes, if it's a fair estimate you could explain in an interview.
---
U: Which spreadsheet formula adds up a column only where another column says "paid"? | How do I look up a price from another sheet by product name?
A: SUMIF does that: the range to check, the word "paid", then the range to add. | XLOOKUP (or VLOOKUP in older versions): the name, the lookup column, then the price column.
---
U: How do I undo my last git commit but keep the changes? | I committed to the wrong branch. How do I move the commit?
A: git reset --soft HEAD~1 puts the changes back in staging. | Note the commit hash, switch to the right branch, cherry-pick it, then reset the wrong branch.
---
U: Is tipping expected in {country}? | How much should I tip at restaurants in {country}?
A: Customs differ a lot; a quick look at a recent travel forum for {country} is the most reliable guide. | It varies; rounding up or leaving a small amount is usually safe unless service is already included.
---
U: What's the easiest way to get around {city}, train or bus? | Is it worth renting a bike in {city}?
A: Trains are usually quicker across town; buses fill the gaps. A day pass often pays for itself. | In a flat, compact centre, yes. Check for bike lanes on your main routes first.
---
U: I want to start meditating. Where do I begin? | Is five minutes of meditation a day even worth it?
A: Sit comfortably, set a timer for five minutes, and count breaths up to ten, starting over when you drift. | Yes. Consistency matters more than length, and five minutes is easy to keep up.
---
U: Tell me a joke about office life. | Got a clean joke I can use in a speech?
A: Why did the spreadsheet see a therapist? Too many unresolved cells. | I told my {plant} a joke. It didn't laugh, but it did grow on me.
---
U: Help me plan lunches for the week so I stop buying sandwiches. | Give me five easy lunches I can prep on {weekday}.
A: Grain bowls, a big pot of soup, pasta salad, wraps, and {food}. Prep the bases on {weekday} and mix each day. | Try {food}, a lentil salad, rice bowls, egg muffins, and a chickpea wrap.
---
U: I finally finished the {hobby} project I started months ago! | Guess who stuck with {hobby} for a whole month.
A: Congratulations! What's next? | That's great! Has it got easier?
U: No idea, maybe something bigger. | Much easier, honestly.
A: Pick something just a bit harder, that's the sweet spot. | That's how habits form. Nice work.
---
U: My kid needs a science fair idea. Something simple? | Any quick science experiment for a rainy afternoon with kids?
A: Test which paper towel brand absorbs the most water; it's cheap, measurable, and easy to chart. | Make a baking soda volcano, then try changing the amounts to see what erupts higher.
---
U: Can you write a friendly note for my neighbour asking them to hold a parcel for me? | Write a short note thanking my neighbour for watering the plants.
A: "Hi! A parcel is arriving for me on {weekday} while I'm out. Could you possibly take it in? Thanks so much!" | "Thank you so much for looking after the plants while we were away. They look happier than ever!"
---
U: What does "joint and several liability" mean in my lease? | What's a break clause in a rental contract?
A: It means each tenant can be held responsible for the whole rent, not just their share. | It lets you end the tenancy early at a set point, usually with notice. Check the exact conditions.
---
U: {product} or {product2}: which would you get first? | I can only afford one: {product} or {product2}?
A: Whichever solves a problem you have every day. The other can wait for a sale. | Think about which one you'd miss more after a week; that's your answer.
---
U: How do you say "good luck" in Spanish? | What's "see you soon" in Italian?
A: "Buena suerte." | "A presto."
U: And "thank you very much"? | And "thanks a lot"?
A: "Muchas gracias." | "Grazie mille."
---
U: Any easy hike near {city} for a beginner? | What should I bring on a three-hour hike?
A: Look for a marked loop trail under ten kilometres with little climbing; local tourist offices list them. | Water, a snack, a light layer, sunscreen, a charged phone, and shoes you've already worn in.
---
U: Thanks for the help earlier. | That was really useful, thank you.
A: Anytime! What's next on your list? | You're welcome. Anything else?
U: Nothing for now. | That's all for the moment.
A: Sounds good. | Okay, talk later.
""")

ACKS = ("Noted, thanks for letting me know.", "Got it, I'll keep that in mind.", "Good to know!",
        "Thanks, noted.", "Okay, I've made a note of that.", "Understood.", "Sounds good.",
        "Nice, thanks for sharing.", "Okay! Anything I can help with there?", "Makes sense.",
        "Great, I'll remember.", "Ah, okay.")
REPLIES = ("Hmm, that's worth thinking about.", "A lot of people feel the same way.",
           "It varies; happy to dig into it if you want.", "Fair point. Want me to look into it?",
           "Opinions really are split on that one.")
OPENERS = ("Morning! Got a few things today.", "Hi again.", "Hey, quick session before lunch.",
           "Hello! Back with more questions.", "Evening. Let's get through a few things.")
ASIDES = ("Oh, before I forget: ", "Unrelated, but worth noting: ", "Side note: ", "Quick note: ",
          "Also, for the record: ")
# fmt: on
