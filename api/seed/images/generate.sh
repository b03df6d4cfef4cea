#!/usr/bin/env bash
# Draws the demo listings' illustrations (api/seed/catalogue.ts names them). Run once by hand with
# ImageMagick 6 to regenerate them; the JPEGs are shipped, so nothing here runs with the product.
set -euo pipefail
cd "$(dirname "$0")"
IM=${IM:-/usr/bin/convert}
BOLD=DejaVu-Sans-Bold
PLAIN=DejaVu-Sans
ROUND="stroke-linecap round stroke-linejoin round"
JPEG=(-strip -quality 80 -sampling-factor 4:2:0 -interlace JPEG)

# A soft studio background and a caption line at the bottom.
backdrop() { echo "-size 800x800 radial-gradient:#ffffff-$1"; }
caption() { echo "-stroke none -font $PLAIN -pointsize 22 -fill #555555 -gravity south -annotate +0+36"; }

# shadow SHAPE-DRAW: a blurred drop shadow under a drawn shape.
shadow() { printf '%s\n' '(' -size 800x800 xc:none -fill '#00000066' -draw "translate 10,16 $1" -blur 0x14 ')' -composite; }

# shaded FILL DRAW: the shape filled, lighter at the top and darker at the bottom.
shaded() {
  printf '%s\n' '(' -size 800x800 xc:none -fill "$1" -draw "$2" \
    '(' -size 800x800 'gradient:#ffffff40-#00000040' ')' -compose atop -composite ')' -compose over -composite
}

# signature INK NAME X Y: the player's autograph in marker, slanted, centred on (x, y).
signature() {
  printf '%s\n' -gravity center -font Z003-MediumItalic -pointsize 62 -fill "$1" -stroke "$1" -strokewidth 1 \
    -annotate "-14x-14$(printf '%+d%+d' $(( $3 - 400 )) $(( $4 - 400 )))" "$2"
}

# jersey OUT VIEW(front|back) CUT(tee|tank) BODY TRIM OUTLINE NUMBER LETTERING CAPTION BACKGROUND [INK AUTOGRAPH]
jersey() {
  local out=$1 view=$2 cut=$3 body=$4 trim=$5 outline=$6 number=$7 lettering=$8 text=$9 bg=${10} ink=${11:-} autograph=${12:-}
  local neck shape
  if [ "$cut" = tank ]; then
    neck=$([ "$view" = front ] && echo 240 || echo 190)
    shape="path 'M 330,150 L 288,150 Q 290,250 240,300 L 240,690 L 560,690 L 560,300 Q 510,250 512,150 L 470,150 Q 460,$neck 400,$neck Q 340,$neck 330,150 Z'"
  else
    neck=$([ "$view" = front ] && echo 215 || echo 168)
    shape="polygon 345,150 270,165 150,250 195,378 262,338 262,690 538,690 538,338 605,378 650,250 530,165 455,150 400,$neck"
  fi
  local size=$(( ${#number} > 1 ? 170 : 200 ))
  # Long names shrink to stay on the shirt.
  local letters=$(( 360 / ${#lettering} < 46 ? 360 / ${#lettering} : 46 ))
  # A tank top narrows towards the straps: its lettering sits lower.
  local lettersAt=$([ "$cut" = tank ] && echo 100 || echo 125)
  local args=($(backdrop "$bg"))
  mapfile -t -O ${#args[@]} args < <(shadow "$shape"; shaded "$body" "$shape")
  args+=(-fill none -stroke "$outline" -strokewidth 3 -draw "$shape" -stroke "$trim")
  if [ "$cut" = tank ]; then
    args+=(-strokewidth 10 -draw "$ROUND path 'M 288,156 Q 290,250 244,298'" -draw "$ROUND path 'M 512,156 Q 510,250 556,298'"
      -draw "$ROUND path 'M 470,156 Q 460,$((neck - 6)) 400,$((neck - 6)) Q 340,$((neck - 6)) 330,156'")
  else
    args+=(-strokewidth 14 -draw "$ROUND line 168,281 209,358" -draw "$ROUND line 632,281 591,358"
      -strokewidth 10 -draw "$ROUND polyline 349,155 400,$((neck - 5)) 451,155")
  fi
  args+=(-stroke none -gravity center -font "$BOLD")
  if [ "$view" = front ]; then
    args+=(-pointsize 34 -fill "$trim" -stroke "$outline" -strokewidth 1 -annotate "+0-$(( lettersAt - 5 ))" "$lettering"
      -pointsize $((size - 40)) -strokewidth 4 -annotate +0+60 "$number")
  else
    args+=(-pointsize "$letters" -fill "$trim" -stroke "$outline" -strokewidth 2 -annotate "+0-$lettersAt" "$lettering"
      -pointsize "$size" -strokewidth 5 -annotate +0+60 "$number")
  fi
  [ -n "$ink" ] && mapfile -t -O ${#args[@]} args < <(signature "$ink" "$autograph" 400 560)
  args+=($(caption) "$text" "${JPEG[@]}" "$out")
  "$IM" "${args[@]}"
}

# authentication OUT PLAYER ITEM: the card that comes with the item, its NFC tag on it.
authentication() {
  "$IM" -size 800x800 'gradient:#1b2b45-#0b1320' \
    -fill '#16233a' -stroke '#c9a227' -strokewidth 4 -draw 'roundrectangle 110,170 690,630 28,28' \
    -fill none -stroke '#c9a227' -strokewidth 10 \
    -draw "$ROUND arc 330,250 410,330 -50,50" -draw "$ROUND arc 300,220 440,360 -50,50" -draw "$ROUND arc 270,190 470,390 -50,50" \
    -fill '#c9a227' -stroke none -draw 'circle 370,290 370,302' \
    -gravity north -font "$BOLD" -fill '#f3e7c0' -pointsize 31 -annotate +0+420 'PROVENANCE AUTHENTICATED' \
    -font "$PLAIN" -fill '#d8dde6' -pointsize 30 -annotate +0+480 "$2" -pointsize 24 -annotate +0+525 "$3" \
    -fill '#c9a227' -pointsize 20 -annotate +0+575 'Tamper-evident NFC tag · tap to verify' \
    "${JPEG[@]}" "$1"
}

# bat OUT CAPTION: a game-used bat on the diagonal, the barrel signed.
bat() {
  local outline="path 'M -330,-16 Q -345,-16 -345,0 Q -345,16 -330,16 L -300,14 L -110,14 Q 40,40 300,38 Q 345,38 345,0 Q 345,-38 300,-38 Q 40,-40 -110,-14 L -300,-14 Z'"
  local args=($(backdrop '#e9e2d6'))
  mapfile -t -O ${#args[@]} args < <(shadow "translate 400,400 rotate -35 $outline")
  args+=(-fill '#d7a86e' -stroke '#8a5a2b' -strokewidth 3 -draw "translate 400,400 rotate -35 $outline"
    -stroke none -fill '#f0c993' -draw "translate 400,400 rotate -35 path 'M -100,-9 Q 40,-30 300,-28 L 300,-14 Q 40,-16 -100,-2 Z'"
    -fill '#3a2414' -draw "translate 400,400 rotate -35 path 'M -300,-14 L -150,-14 L -150,14 L -300,14 Z'"
    -fill '#1b1b1b' -draw "translate 400,400 rotate -35 ellipse 150,0 46,16 0,360"
    -fill '#f0c993' -font "$BOLD" -pointsize 16 -gravity center -annotate -35x-35+120-85 'PRO 34')
  mapfile -t -O ${#args[@]} args < <(signature '#1a1a1a' 'Aaron Judge' 470 290)
  args+=($(caption) "$2" "${JPEG[@]}" "$1")
  "$IM" "${args[@]}"
}

# stripe X Y RX RY: an 8 px stripe following the front of a band.
stripe() {
  echo "path 'M $(($1 - $3)),$2 A $3,$4 0 0,0 $(($1 + $3)),$2 L $(($1 + $3)),$(($2 + 8)) A $3,$4 0 0,1 $(($1 - $3)),$(($2 + 8)) Z'"
}

# band X Y RX RY HEIGHT COLOUR INSIDE STRIPE LABEL LABEL-COLOUR: a fabric band standing on end, seen from above.
band() {
  local x=$1 y=$2 rx=$3 ry=$4 h=$5 colour=$6 inside=$7 stripe=$8 label=$9 ink=${10}
  local side="path 'M $((x - rx)),$y L $((x - rx)),$((y + h)) A $rx,$ry 0 0,0 $((x + rx)),$((y + h)) L $((x + rx)),$y Z'"
  shadow "$side"
  shaded "$colour" "$side"
  printf '%s\n' -fill "$inside" -stroke "$colour" -strokewidth 6 -draw "ellipse $x,$y $rx,$ry 0,360" \
    -stroke none -fill "$stripe" -draw "$(stripe $x $((y + 10)) $rx $ry)" -draw "$(stripe $x $((y + h - 18)) $rx $ry)" \
    -stroke none -fill "$ink" -font "$BOLD" -pointsize $(( h * 2 / 3 )) -gravity center \
    -annotate "$(printf '%+d%+d' $(( x - 400 )) $(( y + h / 2 + ry - 400 )))" "$label"
}

wristbands() {
  local args=($(backdrop '#dfe3ee'))
  mapfile -t -O ${#args[@]} args < <(band 280 300 105 38 120 '#1d428a' '#142f63' '#ffc72c' 30 '#ffc72c'; band 520 380 105 38 120 '#ffc72c' '#d9a514' '#1d428a' 30 '#1d428a')
  args+=($(caption) "$2" "${JPEG[@]}" "$1")
  "$IM" "${args[@]}"
}

armband() {
  local args=($(backdrop '#f0dede'))
  mapfile -t -O ${#args[@]} args < <(band 400 300 210 70 130 '#c8102e' '#8f0b21' '#f6eb61' C '#ffffff')
  args+=($(caption) "$2" "${JPEG[@]}" "$1")
  "$IM" "${args[@]}"
}

# ball OUT CAPTION AUTOGRAPH: a match ball, white panels and black pentagons, signed.
ball() {
  local pentagons="" angle
  pentagons+="polygon 400,330 467,378 441,457 359,457 333,378 "
  for angle in 18 90 162 234 306; do
    pentagons+="push graphic-context translate 400,400 rotate $angle polygon 170,-58 230,-40 235,40 170,58 150,0 pop graphic-context "
  done
  "$IM" $(backdrop '#dfe9df') \
    \( -size 800x800 xc:none -fill '#00000066' -draw 'circle 410,416 410,656' -blur 0x14 \) -composite \
    \( -size 800x800 xc:none -fill '#fbfbfb' -draw 'circle 400,400 400,640' \
       \( -size 800x800 xc:none -fill '#1d1d1d' -draw "$pentagons" \
          -fill none -stroke '#9a9a9a' -strokewidth 3 \
          -draw 'line 467,378 571,344' -draw 'line 441,457 505,545' -draw 'line 359,457 295,545' -draw 'line 333,378 229,344' -draw 'line 400,330 400,230' \) \
       -compose over -composite \
       \( -size 800x800 xc:none -fill white -draw 'circle 400,400 400,640' \) -compose dst-in -composite \
       \( -size 800x800 radial-gradient:'#ffffff00'-'#00000070' -crop 800x800+0+0 \) -compose atop -composite \) \
    -compose over -composite \
    -fill none -stroke '#8f8f8f' -strokewidth 3 -draw 'circle 400,400 400,640' \
    -gravity center -font Z003-MediumItalic -pointsize 70 -fill '#1537a8' -stroke '#1537a8' -strokewidth 1 -annotate -12x-12+10+120 "$3" \
    $(caption) "$2" "${JPEG[@]}" "$1"
}

# shoe OUT CAPTION UPPER ACCENT SOLE STUDS(yes|no) [INK AUTOGRAPH]: a low-top seen from the side.
shoe() {
  local upper="path 'M 160,545 L 165,360 Q 168,325 205,330 Q 250,345 290,360 Q 300,300 345,290 L 385,300 Q 440,390 540,430 Q 640,455 670,490 Q 690,515 680,545 Z'"
  local sole="path 'M 140,540 L 690,540 Q 705,575 670,595 L 170,595 Q 135,590 140,540 Z'"
  local args=($(backdrop '#e4e7ea'))
  mapfile -t -O ${#args[@]} args < <(shadow "$sole"; shaded "$3" "$upper")
  args+=(-fill none -stroke '#222222' -strokewidth 3 -draw "$upper"
    -stroke none -fill "$4" -draw "path 'M 200,520 Q 380,500 520,420 Q 560,470 650,500 Q 420,560 200,545 Z'"
    -fill "$5" -stroke '#444444' -strokewidth 2 -draw "$sole"
    -fill '#ffffff' -stroke '#ffffff' -strokewidth 6)
  local x y
  # Laces down the tongue, a heel tab and the toe cap's seam.
  for x in 0 1 2 3 4; do y=$(( 320 + x * 22 )); args+=(-draw "$ROUND line $(( 365 + x * 26 )),$(( y - 12 )) $(( 385 + x * 26 )),$(( y + 18 ))"); done
  args+=(-stroke "$4" -strokewidth 14 -draw "$ROUND line 172,372 168,520" -stroke '#222222' -strokewidth 3 -fill none -draw "path 'M 600,450 Q 585,500 600,540'")
  if [ "$6" = yes ]; then
    args+=(-stroke none -fill '#3b3b3b')
    for x in 200 290 470 560 640; do args+=(-draw "polygon $(( x - 14 )),595 $(( x + 14 )),595 $(( x + 8 )),625 $(( x - 8 )),625"); done
  fi
  [ -n "${7:-}" ] && mapfile -t -O ${#args[@]} args < <(signature "$7" "$8" 430 470)
  args+=($(caption) "$2" "${JPEG[@]}" "$1")
  "$IM" "${args[@]}"
}

jersey brady-front.jpg front tee '#d50a0a' '#ffffff' '#34302b' 12 'TAMPA BAY' 'Tom Brady · Tampa Bay · NFC Championship Game' '#e9d9d2'
jersey brady-back.jpg back tee '#d50a0a' '#ffffff' '#34302b' 12 'BRADY' 'Tom Brady · Tampa Bay · NFC Championship Game' '#e9d9d2'
authentication brady-card.jpg 'Tom Brady #12' 'Game-worn jersey · January 24, 2021'

jersey mahomes-front.jpg front tee '#e31837' '#ffffff' '#ffb81c' 15 'KANSAS CITY' 'Patrick Mahomes · Kansas City · Signed' '#f1dfd6'
jersey mahomes-back.jpg back tee '#e31837' '#ffffff' '#ffb81c' 15 'MAHOMES' 'Patrick Mahomes · Kansas City · Signed' '#f1dfd6' '#111111' 'Patrick Mahomes'

jersey giannis-front.jpg front tank '#00471b' '#eee1c6' '#0077c0' 34 'MILWAUKEE' 'Giannis Antetokounmpo · Milwaukee · Game worn' '#dfe8dc'
jersey giannis-back.jpg back tank '#00471b' '#eee1c6' '#0077c0' 34 'ANTETOKOUNMPO' 'Giannis Antetokounmpo · Milwaukee · Game worn' '#dfe8dc'

jersey haaland-front.jpg front tee '#6cabdd' '#ffffff' '#1c2c5b' 9 'MANCHESTER' 'Erling Haaland · Manchester · Hat-trick match' '#dde7f0'
jersey haaland-back.jpg back tee '#6cabdd' '#ffffff' '#1c2c5b' 9 'HAALAND' 'Erling Haaland · Manchester · Hat-trick match' '#dde7f0' '#1c2c5b' 'Erling Haaland'
authentication haaland-card.jpg 'Erling Haaland #9' 'Match-worn shirt · August 27, 2022'

bat judge-bat.jpg 'Aaron Judge · New York · Game-used bat'
authentication judge-card.jpg 'Aaron Judge #99' 'Game-used bat · 2022 season'
wristbands curry-wristbands.jpg 'Stephen Curry · Golden State · Game-worn wristbands'
ball salah-ball.jpg 'Mohamed Salah · Liverpool · Signed match ball' 'Mo Salah'
authentication salah-card.jpg 'Mohamed Salah #11' 'Match ball · March 5, 2023'
shoe tatum-sneakers.jpg 'Jayson Tatum · Boston · Game-worn sneakers' '#007a33' '#ffffff' '#f4f4f4' no '#111111' 'J. Tatum'
shoe betts-cleats.jpg 'Mookie Betts · Los Angeles · Player-issued cleats' '#005a9c' '#ffffff' '#1f1f1f' yes
armband van-dijk-armband.jpg "Virgil van Dijk · Liverpool · Captain's armband"
