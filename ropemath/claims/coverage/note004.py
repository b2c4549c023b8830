r"""Coverage pass of note 004: every sentence with mathematical content, mapped to the entry that judges it.

Scope: :data:`COVERAGE`, rows of (the note's words, verbatim up to whitespace; the id of the entry in
:mod:`ropemath.claims.note004` that judges them or into which they are merged).  Kept apart from the
entries so that each module stays readable; ``tests/test_claims_rubric.py`` checks that every row is
verbatim and every entry is listed.

References: note 004 of :data:`ropemath.claims.ledger.NOTES`.
"""

from __future__ import annotations

# Coverage pass, sentence by sentence (formula lines count as sentences): 117 sentences with mathematical content
# (119 rows: two sentences are judged by two entries each), 54 entries, 65 rows merged into an entry that also
# judges another row (rows minus distinct entries, as ropemath.claims.report.coverage_table counts them).
COVERAGE: tuple[tuple[str, str], ...] = (
    # Background and Related Work
    ("位置编码的主要作用是为了保证同样的Token输入到模型中是可以区分的, 从而可以编码它们的位置关系.", "n004-order"),
    ("一个显然的例子, “我吃饭”和”饭吃我”明显因主宾语的位置不同而具有不同的含义.", "n004-order"),
    # Preliminary
    ("xiRdEN 中第i 个位置上的d 维Embedding.", "n004-attention"),
    ("qm=fq(xm,m)kn=fk(xn,n)vn=fv(xn,n)", "n004-attention"),
    ("其中qm, kn,vn 分别为第m,n 位置通过fq,fk,fv 获得的Query, Key, Value.", "n004-attention"),
    ("am,n=exp(qmknd)j=1Nexp(qmkjd)om=n=1Nam,nvn", "n004-attention"),
    ("am,nm,n Token之间的Attention Score, om为第m 个Token的计算完Self - Attention后的表示.", "n004-attention"),
    # Absolute Position Embedding
    ("最经典的ft:t{q,k,v}() 的方法是直接将Embedding xi 与位置信息pi 直接相加", "n004-four-terms"),
    ("ft:t{q,k,v}(xi,i):=Wt:t{q,k,v}(xi+pi)", "n004-four-terms"),
    ("{pi,2t=sin(k/100002t/d) pi,2t+1=cos(k/100002t/d)", "n004-sinusoidal"),
    ("pi,2t,pi,2t+1 分别为piRd 的奇数维和偶数维.", "n004-sinusoidal-parity"),
    # Relative Position Embedding
    ("由于绝对位置编码不能编码两个Token之间的相对位置关系", "n004-absolute-no-relative"),
    ("fq(xm):=Wqxmfk(xn,n):=Wk(xn+p~rk)fv(xn,n):=Wv(xn+p~rv)", "n004-relative-schemes"),
    ("p~rk,p~rvRd 为可学习的相对位置编码.", "n004-relative-schemes"),
    ("其中, rm,n 之间的相对位置, 用r=clip(mn,rmin,rmax) 得到.", "n004-relative-schemes"),
    ("这假设了超出一定距离限制的位置信息是不太重要的.", "n004-relative-schemes"),
    ("此时直接采用最远距离的相对位置编码即可.", "n004-relative-schemes"),
    ("qmkn=xmWqWkxn+xmWqWkpn+pmWqWkxn+pmWqWkpn", "n004-four-terms"),
    ("所以可以额外加一个矩阵W~k 让它来编码pn:", "n004-transformer-xl"),
    ("qmkn=xmWqWkxn+xmWqW~kp~mn+uWqWkxn+vWqW~kp~mn", "n004-transformer-xl"),
    ("直接将相对位置变为一个Learnable bias term bi,j:", "n004-t5"),
    ("qmkn=xmWqWkxn+bi,j", "n004-t5"),
    ("用两个Projection进一步分别编码pm,pn, 即相对位置, 似乎是更合理的:", "n004-tupe"),
    ("qmkn=xmWqWkxn+pmUqUkpn+bi,j", "n004-tupe"),
    ("认为简单的将绝对位置pn,pm 替换为相对位置p~mn就可以:", "n004-deberta"),
    ("qmkn=xmWqWkxn+xmWqWkp~mn+p~mnWqWkxn", "n004-deberta"),
    # RoPE
    ("正如它的名字一样, 它是通过旋转来区分不同位置的.", "n004-rotation-angle"),
    ("对于绝对位置m, RoPE将向量在极坐标系中通过旋转能够代表m 的角度来表征它们的位置.", "n004-rotation-angle"),
    ("使得计算Self-Attention的内积时能将相对位置信息注入到其中.", "n004-goal"),
    # Formulation
    ("只需要将qmkn 建模为能注入相对位置mn 的函数g:", "n004-goal"),
    ("fq(xm,m),fk(xn,n)=g(xm,xn,mn)", "n004-goal"),
    ("所以目标就是找到满足g 性质的fq(xm,m),fk(xn,n).", "n004-goal"),
    # Derivation of RoPE under 2D
    ("SDPA(Scaled Dot-Product Attention)是两向量的内积.", "n004-sdpa-inner"),
    ("两向量的内积等于一个复数与另一个复数的共轭的乘积的实部.", "n004-complex-inner"),
    ("它们的内积定义为: ab=a1b1+a2b2", "n004-complex-inner"),
    ("有复数za=a1+a2i, 其共轭为za=a1a2i, 同理对于复数zb=b1+b2i 有共轭zb=b1b2i.", "n004-complex-inner"),
    ("zazb=(a1+a2i)(b1b2i)=a1b1+a1(b2i)+a2ib1+a2i(b2i)=a1b1+a2b2+i(a2b1a1b2)", "n004-complex-inner"),
    ("实部a1b1+a2b2 恰好就是a,b 在实数域内积的值.", "n004-complex-inner"),
    ("需要使得qm,kn 仅依赖于它们的绝对位置m,n: qm=fq(xq,m)kn=fk(xk,n)", "n004-goal"),
    ("使得其内积依赖于相对位置mn, 以此在内积上表征二者的相对位置信息:", "n004-goal"),
    ("qmkn=fq(xm,m),fk(xn,n)=g(xm,xn,nm)", "n004-goal"),
    ("同时, 这种编码方式还应该保证在初始状态下不编码位置信息: q=fq(xq,0)k=fk(xk,0)", "n004-gamma"),
    ("fq(xq,m)=Rq(xq,m)eiΘq(xq,m)fk(xk,n)=Rk(xk,n)eiΘk(xk,n)g(xq,xk,nm)=Rg(xq,xk,nm)eiΘg(xq,xk,nm)",
     "n004-polar-split"),
    ("其中, Rf,Rg,Θf,Θg 分别为f{q,k}g 的幅度(模)和角度.", "n004-polar-split"),
    ("Rq(xq,m)Rk(xk,n)=Rg(xq,xk,nm)Θk(xk,n)Θq(xq,m)=Θg(xq,xk,nm)", "n004-polar-split"),
    ("q=qeiθq=Rq(xq,0)eiΘq(xq,0)k=keiθk=Rk(xk,0)eiΘk(xk,0)", "n004-modulus"),
    ("其中, q,kθq,θk 分别为q,k 在二维平面上的幅值(模)和角度.", "n004-modulus"),
    ("Rq(xq,m)Rk(xk,m)=Rg(xq,xk,0)=Rq(xq,0)Rk(xk,0)=qk", "n004-modulus"),
    ("Θk(xk,m)Θq(xq,m)=Θg(xq,xk,0)=Θk(xk,0)Θq(xq,0)=θkθq", "n004-angle"),
    ("Rq(xq,m)=Rq(xq,0)=qRk(xk,n)=Rk(xk,0)=kRg(xq,xk,nm)=Rg(xq,xk,0)=qk", "n004-modulus"),
    ("它显然不依赖位置信息, 即满足q=fq(xq,0),k=fk(xk,0).", "n004-modulus"),
    ("当位置相同时, 不应该编码任何位置信息.", "n004-angle"),
    ("令Θf:=Θq=Θk, 根据Θq(xq,m)θq=Θk(xk,m)θk, 此时明显两侧是相同的函数.", "n004-angle"),
    ("可以推断出Θf(x{q,k},m)θ{q,k} 是与位置m 相关, 与Word Embedding x{q,k} 无关的函数", "n004-angle"),
    ("Θf(x{q,k},m)=ϕ(m)+θ{q,k}", "n004-angle"),
    ("ϕ(m+1)ϕ(m)=Θg(xq,xk,1)+θqθk", "n004-recurrence"),
    ("上式中右侧的常数项与绝对位置m 是无关的, 所以令上式右端整体为θ, ϕ(m) 就是一个等差数列:", "n004-arithmetic"),
    ("ϕ(m)=mθ+γ", "n004-arithmetic"),
    ("其中γR 为常数(首项), θ 非零, 绝对位置m 在这个式子中也是公差.", "n004-common-difference"),
    ("fq(xq,m)=qei(θq+mθ+γ)=qei(mθ+γ)fk(xk,n)=kei(θk+nθ+γ)=kei(nθ+γ)", "n004-arithmetic"),
    ("通常q=fq(xm,0),k=fk(xn,0) 是直接由一层投影得到的:", "n004-initial-projection"),
    ("q=fq(xm,0)=Wqxnk=fk(xn,0)=Wkxn", "n004-initial-projection"),
    ("方便起见, 直接设定γ=0, 因此得到最终的RoPE形式:", "n004-gamma"),
    ("fq(xm,m)=(Wqxm)eimθfk(xn,n)=(Wkxn)einθ", "n004-gamma"),
    ("g(xm,xn,mn)=Re[(Wqxm)(Wkxn)ei(mn)θ]", "n004-solution"),
    ("其中Re() 为取复数的实部, (Wkxn)(Wkxn) 的共轭复数", "n004-solution"),
    ("θR 为预设好的非零常数(基波长, 沿用Transformer的原论文, 经常设为10000, 底数的选择可以参考这里).",
     "n004-theta-10000"),
    ("f{q,k}(xm,m)=(cosmθsinmθsinmθcosmθ)(W{q,k}(11)W{q,k}(12)W{q,k}(21)W{q,k}(22))(xm(1)xm(2))", "n004-solution"),
    ("它就是{q,k}m 乘了一个旋转矩阵, 对应着空间中的向量旋转操作", "n004-solution"),
    # General form
    ("更为普遍的, 将上节得到的二维情况扩展到任意偶数维度d.", "n004-block"),
    ("f{q,k}(xm,m)=RΘ,mdW{q,k}xm", "n004-block"),
    ("非常自然的思路就是将d 维拆成d/2 个的二维子空间", "n004-block"),
    ("RΘ,md=(cosmθ1sinmθ10000sinmθ1cosmθ1000000cosmθ2sinmθ20000sinmθ2cosmθ2000000cosmθd/2", "n004-block"),
    ("其中, Θ={θi=100002(i1)/d,i[1,2,,d/2]}.", "n004-theta"),
    ("所以i 越大, θi 越小, 即下标越大的维度旋转速度越慢.", "n004-theta-order"),
    ("不同角速度的维度就像时针分针秒针一样, 通过不同的快慢角速度来组合表征一个位置信息.", "n004-clock"),
    ("qmkn=(RΘ,mdWqxm)(RΘ,ndWkxn)=xWqRΘ,nmdWkxn", "n004-weights"),
    ("其中, RΘ,nmd=(RΘ,md)RΘ,nd.", "n004-relative-matrix"),
    ("由于RΘd 是一个正交矩阵, 所以它在编码位置信息的时候是相对稳定的.", "n004-orthogonal"),
    ("由于RΘd 是一个正交矩阵, 所以它在编码位置信息的时候是相对稳定的.", "n004-stability"),
    ("RoPE相较于之前位置编码的最大不同, 在于它是乘性的, 而不是加性的", "n004-multiplicative"),
    # Properties of RoPE
    ("首先, RoPE具有长程衰减", "n004-decay"),
    ("和最早版本的Transformer一样, RoPE设定θi=100002i/d", "n004-same-frequencies"),
    ("底数θ 越大长程衰减越慢.", "n004-larger-base"),
    ("其次, RoPE在Linear Attention当中可以使得Self-Attention被更一般的形式重写.", "n004-linear-attention"),
    ("Attention(Q,K,V)m=n=1Nsim(qm,kn)vnn=1Nsim(qm,kn)", "n004-linear-attention"),
    ("Self-Attention中采用的是sim(qm,kn)=exp(qmkn/d), 它具有O(N2) 的复杂度.", "n004-linear-attention"),
    ("Linear Attention的复杂度是比SDPA更低的线性复杂度", "n004-linear-attention"),
    ("Attention(Q,K,V)m=n=1Nϕ(qm)φ(kn)vnn=1Nϕ(qm)φ(kn)", "n004-linear-attention"),
    ("其中ϕ(),φ() 通常是非负函数, 例如ϕ(x)=φ(x)=elu(x)+1, 或者ϕ(qi)=softmax(qi),φ(kj)=exp(kj).",
     "n004-linear-attention"),
    ("由于RoPE的存在, 可以使得Hidden State的范数不变, 因此可以将RoPE直接乘, 从而无缝集成到Linear Attention中",
     "n004-linear-rope-reason"),
    ("从而不增加Linear Attention的复杂度:", "n004-linear-rope-form"),
    ("Attention(Q,K,V)m=n=1N(RΘ,mdϕ(qm))(RΘ,ndφ(kn))vnn=1Nϕ(qm)φ(kn)", "n004-linear-rope-form"),
    # Computational efficient realization of rotary matrix multiplication
    ("由于RΘ,md 是一个稀疏矩阵, 所以它的计算效率很低.", "n004-sparse"),
    ("RΘ,mdx=(x1x2x3x4xd1xd)(cosmθ1cosmθ1cosmθ2cosmθ2cosmθd/2cosmθd/2)", "n004-elementwise"),
    ("其中 为逐元素点乘.", "n004-elementwise"),
    # Long-term decay of RoPE
    ("在RoPE的作用下, 将向量q=Wqxm,k=Wkxn 两维两维的分组成对, 其内积可以写成:", "n004-decay-complex"),
    ("(RΘ,mdWqxm)(RΘ,ndWkxn)=Re[i=0d/21q[2i:2i+1]k[2i:2i+1]ei(mn)θi]", "n004-decay-complex"),
    ("其中q[2i:2i+1] 代表q 中的第2i 到第2i+1 个元素, k 同理.", "n004-decay-complex"),
    ("hi=q[2i:2i+1]k[2i:2i+1],Sj=i=0j1ei(mn)θi, 同时设hd/2=0,S0=0, 由Abel变换可以得到:", "n004-abel"),
    ("i=0d/21q[2i:2i+1]k[2i:2i+1]ei(mn)θi=i=0d/21hi(Si+1Si)=i=0d/21Si+1(hi+1hi)", "n004-abel"),
    ("|i=0d/21Si+1(hi+1hi)|i=0d/21|Si+1||(hi+1hi)|(maxi|hi+1hi|)i=0d/21|Si+1|", "n004-abel-bound"),
    ("即当相对位置mn 增大时, 在θi=100002i/d的设定下, 1d/2i=1d/2|Si| 的值是逐渐减小的", "n004-bound-decreasing"),
    # Experiments
    ("作者将RoFormer与Vallina Transformer在WMT 2014 English-German(450w平行语料)上对比:", "n004-translation"),
    ("RoFormer略高于Vallina Transformer.", "n004-translation"),
    ("RoFormer明显的比BERT要收敛更快一些, 而且从曲线上来看它的训练看起来更加稳定.", "n004-pretraining"),
    ("RoFormer在MRPC, STS-B, QQP上有显著优势, 它们都是偏语义类的任务, 在SST-2和QNLI, MNLI中表现弱于BERT.", "n004-glue"),
    ("上文中提到了RoPE在Linear Attention中的优势", "n004-performer"),
    ("RoPE能够在维持原复杂度不变的条件下加速收敛.", "n004-performer"),
    ("RoPE能够在维持原复杂度不变的条件下加速收敛.", "n004-linear-rope-form"),
    ("随着序列长度的增加, RoFormer总是能取得更好的性能, 说明RoFormer在长度外推设置下表现较好.", "n004-extrapolation"),
    ("当RoFormer输入长为512时, 能够略优于BERT和WoBERT.", "n004-cail"),
    ("当RoFormer的最大输入长度扩展到1024的时候, 显著优于BERT和WoBERT.", "n004-cail"),
    ("此外, 还能观察到在中文场景下, 词建模的WoBERT要优于字建模的BERT.", "n004-cail"),
    ("更大的优势是词建模如果用到生成类任务中能带来更快的推理速度.", "n004-cail"),
    # Summary
    ("RoPE用绝对位置编码实现了相对位置编码, 并且能够丝滑无缝的融入到Self-Attention当中.",
     "n004-absolute-implements-relative"),
    ("其一是因为相对位置对信息抽取的Span抽取影响比较大, 因为每个Span的都是通过起止边界位置确定的", "n004-later-work"),
    ("另外可能是因为信息抽取抽取Span的大多都是通过一个乘积计算得到得分, 与内积形式一致", "n004-later-work"),
    ("在更长的上下文场景下, RoPE的续作是ReRoPE, 超过了NTK-RoPE", "n004-later-work"),
)
